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
 * A click-triggered dropdown menu whose code loads on first approach. Until the first click its
 * trigger (a plain button) renders alone; that click opens the menu as soon as the code is
 * there. From then on the trigger's `tip` shows on hover while the menu is closed.
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
  const show = () => {
    if (!shown.current) {
      shown.current = true;
      noteFocus();
      setReady(true);
    }
    // a click while the code is still on its way, or arrived but not yet drawn, opens the menu
    // once it is drawn (the trigger shown meanwhile is the plain button)
    if (!mounted.current) setOpen(true);
  };
  // only the code comes on approach: drawing the menu's trigger then would put a new button
  // under a pointer that may be pressing the old one, and a press and release on two different
  // buttons is no click at all. The trigger changes on the click itself, once it is done.
  const warm = () => void loadDropdown().catch(() => undefined);
  const onShown = useCallback(() => {
    mounted.current = true;
    if (hadFocus.current) box.current?.querySelector<HTMLElement>('button, [tabindex]')?.focus();
  }, []);
  return (
    <span ref={box} className="nb-contents" onPointerEnter={warm} onFocus={warm} onClick={show}>
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
