import type { DropdownProps } from 'antd';
import { lazy, Suspense, useCallback, useEffect, useRef, useState, type ReactElement } from 'react';

// antd's menu (with its layout and overflow parts, the tooltip and the theme) is the heaviest
// piece the sign-in page would carry only for the language and theme menus: it loads when a
// pointer or the focus first comes near the button, and the menu opens once it is there.
const loadDropdown = () => import('./DropdownMenu');
const DropdownMenu = lazy(async () => ({ default: (await loadDropdown()).DropdownMenu }));

/** Runs once, when the part of the tree it sits in first shows. */
function OnShown({ run }: { run: () => void }) {
  useEffect(run, [run]);
  return null;
}

/**
 * A click-triggered dropdown menu whose code loads on first approach. Until then its trigger
 * (a plain button) renders alone; a click before the code arrives opens the menu as soon as it
 * has. Once the code is here the trigger's `tip` shows on hover while the menu is closed.
 */
export function LazyDropdown({
  children: button,
  tip,
  ...props
}: Omit<DropdownProps, 'open' | 'onOpenChange' | 'trigger' | 'children'> & {
  children: ReactElement;
  tip: string;
}) {
  const [ready, setReady] = useState(false);
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLSpanElement>(null);
  const hadFocus = useRef(false);
  /** The trigger is drawn anew inside the menu: whoever had the focus on it keeps it. */
  const noteFocus = () => {
    hadFocus.current = box.current?.contains(document.activeElement) ?? false;
  };
  const shown = useRef(false);
  /** The menu is drawn: from then on its own trigger opens and closes it. */
  const mounted = useRef(false);
  const show = (andOpen: boolean) => {
    if (!shown.current) {
      shown.current = true;
      noteFocus();
      setReady(true);
    }
    // a click while the code is still on its way, or arrived but not yet drawn, opens the menu
    // once it is drawn (the trigger shown meanwhile is the plain button)
    if (andOpen && !mounted.current) setOpen(true);
  };
  const warm = () => void loadDropdown().then(() => show(false));
  const onShown = useCallback(() => {
    mounted.current = true;
    if (hadFocus.current) box.current?.querySelector<HTMLElement>('button, [tabindex]')?.focus();
  }, []);
  return (
    <span
      ref={box}
      className="nb-contents"
      onPointerEnter={warm}
      onFocus={warm}
      onClick={() => show(true)}
    >
      {ready ? (
        <Suspense fallback={button}>
          <DropdownMenu {...props} tip={tip} open={open} onOpenChange={setOpen}>
            {button}
          </DropdownMenu>
          <OnShown run={onShown} />
        </Suspense>
      ) : (
        button
      )}
    </span>
  );
}
