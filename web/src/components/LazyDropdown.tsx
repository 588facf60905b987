import { Tooltip, type DropdownProps } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactElement } from 'react';

// antd's menu (with its layout and overflow parts) is the heaviest piece the sign-in page would
// carry only for the language and theme menus: it loads when a pointer or the focus first comes
// near the button, and the menu opens once it is there.
const loadDropdown = () => import('antd/es/dropdown');
const Dropdown = lazy(loadDropdown);

/** Runs once, when the part of the tree it sits in first shows. */
function OnShown({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/**
 * A click-triggered dropdown menu whose code loads on first approach. Until then its trigger
 * renders alone; a click before the code arrives opens the menu as soon as it has. The trigger's
 * `tip` shows on hover while the menu is closed, never over the open menu's first item.
 */
export function LazyDropdown({
  children: button,
  tip,
  ...props
}: Omit<DropdownProps, 'open' | 'onOpenChange' | 'trigger'> & {
  children: ReactElement;
  tip: string;
}) {
  const [wanted, setWanted] = useState(false);
  const [open, setOpen] = useState(false);
  const children = (
    <Tooltip title={tip} placement="bottom" open={open ? false : undefined}>
      {button}
    </Tooltip>
  );
  const box = useRef<HTMLSpanElement>(null);
  const hadFocus = useRef(false);
  const warm = () => void loadDropdown();
  // the trigger is drawn anew inside the menu: a keyboard user keeps the focus on it
  const keepFocus = useCallback(() => {
    if (hadFocus.current) box.current?.querySelector<HTMLElement>('button, [tabindex]')?.focus();
  }, []);
  return (
    <span
      ref={box}
      className="nb-contents"
      onPointerEnter={warm}
      onFocus={warm}
      onClick={() => {
        if (wanted) return;
        hadFocus.current = box.current?.contains(document.activeElement) ?? false;
        setWanted(true);
        setOpen(true);
      }}
    >
      {wanted ? (
        <Suspense fallback={children}>
          <Dropdown {...props} trigger={['click']} open={open} onOpenChange={setOpen}>
            {children}
          </Dropdown>
          <OnShown run={keepFocus} />
        </Suspense>
      ) : (
        children
      )}
    </span>
  );
}
