import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import type { Shared } from './collection-item';
import type { CollectionItem } from './collection-types';

/** How long the pointer rests on an item before its card opens. */
const OPEN_DELAY_MS = 600;
/** Moving on to the next item while a card is open shows its card sooner. */
const NEXT_DELAY_MS = 200;

export interface HoverTarget {
  index: number;
  id: string;
  /** The pointer when the card opened, in viewport pixels. */
  x: number;
  y: number;
}

/**
 * The item a mouse rests on, after a short delay (a touch, a pen or a pressed button never
 * opens a card). Pressing, scrolling, dragging, a key or leaving the item closes it, and a
 * pressed item shows no card again until the pointer leaves it.
 */
export function useHoverTarget(scrollRef: RefObject<HTMLElement | null>): HoverTarget | null {
  const [target, setTarget] = useState<HoverTarget | null>(null);
  useEffect(() => {
    const element = scrollRef.current;
    if (!element) return;
    let timer = 0;
    let over: HTMLElement | null = null;
    let pressed: HTMLElement | null = null;
    let shown = false;
    let recent = 0;
    let pointer = { x: 0, y: 0 };
    const hide = () => {
      window.clearTimeout(timer);
      timer = 0;
      if (!shown) return;
      shown = false;
      recent = Date.now();
      setTarget(null);
    };
    const show = () => {
      const index = Number(over?.dataset.index);
      const id = over?.dataset.id;
      if (!over?.isConnected || !id || !Number.isInteger(index)) return;
      shown = true;
      setTarget({ index, id, ...pointer });
    };
    const onOver = (event: PointerEvent) => {
      const item = (event.target as Element).closest<HTMLElement>('[data-index][data-id]');
      if (item === over) return;
      over = item;
      const wasShown = shown || Date.now() - recent < 400;
      hide();
      if (!item || event.pointerType !== 'mouse' || event.buttons !== 0) return;
      if (item === pressed) return;
      pressed = null;
      pointer = { x: event.clientX, y: event.clientY };
      timer = window.setTimeout(show, wasShown ? NEXT_DELAY_MS : OPEN_DELAY_MS);
    };
    const onMove = (event: PointerEvent) => {
      if (!shown) pointer = { x: event.clientX, y: event.clientY };
    };
    const onLeave = () => {
      over = null;
      pressed = null;
      hide();
    };
    const onPress = () => {
      pressed = over;
      hide();
    };
    element.addEventListener('pointerover', onOver);
    element.addEventListener('pointermove', onMove);
    element.addEventListener('pointerleave', onLeave);
    element.addEventListener('pointerdown', onPress, true);
    element.addEventListener('contextmenu', onPress, true);
    element.addEventListener('dragstart', onPress, true);
    element.addEventListener('wheel', onPress, { passive: true });
    element.addEventListener('scroll', hide, { passive: true });
    window.addEventListener('keydown', onPress, true);
    window.addEventListener('blur', hide);
    return () => {
      window.clearTimeout(timer);
      element.removeEventListener('pointerover', onOver);
      element.removeEventListener('pointermove', onMove);
      element.removeEventListener('pointerleave', onLeave);
      element.removeEventListener('pointerdown', onPress, true);
      element.removeEventListener('contextmenu', onPress, true);
      element.removeEventListener('dragstart', onPress, true);
      element.removeEventListener('wheel', onPress);
      element.removeEventListener('scroll', hide);
      window.removeEventListener('keydown', onPress, true);
      window.removeEventListener('blur', hide);
    };
  }, [scrollRef]);
  return target;
}

/** A gap between the pointer and the card, and between the card and the window's edges. */
const GAP = 14;
const EDGE = 8;

/**
 * The facts of the item under the mouse (size, created, modified, location), as the original's
 * hover card showed them. It takes no pointer events, so clicks, drags and the rubber band go
 * to what lies under it.
 */
export function HoverCard<T extends CollectionItem>({
  item,
  target,
  shared,
  trash,
}: {
  item: T;
  target: HoverTarget;
  shared: Shared;
  trash: boolean;
}) {
  const { t, fmt } = shared;
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const card = ref.current;
    if (!card) return;
    const { width, height } = card.getBoundingClientRect();
    const left = Math.max(EDGE, Math.min(target.x, window.innerWidth - width - EDGE));
    const below = target.y + GAP + 6;
    const top =
      below + height + EDGE <= window.innerHeight ? below : Math.max(EDGE, target.y - GAP - height);
    card.style.left = `${left}px`;
    card.style.top = `${top}px`;
    card.style.visibility = 'visible';
  }, [target.x, target.y, item]);

  const facts: Array<[string, string, string]> = [];
  // a folder's size is the sum of what it holds, as its row shows it; a mount takes no space
  if (!item.mount) facts.push([t('details.size'), fmt.size(item.size), 'size']);
  if (item.mount)
    facts.push([
      t('details.sharedBy'),
      item.mount.fileShowName || item.mount.fileUsername,
      'shared-by',
    ]);
  if (item.uploadDate) facts.push([t('details.created'), fmt.exact(item.uploadDate), 'created']);
  facts.push([t('details.modified'), fmt.exact(item.updateDate), 'modified']);
  if (trash && item.trashDate)
    facts.push([t('details.deleted'), fmt.exact(item.trashDate), 'deleted']);
  facts.push([
    trash ? t('columns.originalLocation') : t('details.location'),
    item.path,
    'location',
  ]);
  if (item.tags?.length)
    facts.push([t('details.tags'), item.tags.map((tag) => tag.name).join(', '), 'tags']);

  return createPortal(
    <div
      ref={ref}
      className="nb-hovercard"
      role="tooltip"
      data-testid="hover-card"
      data-id={item.id}
      style={{ visibility: 'hidden' }}
    >
      <div className="nb-hovercard__name">{item.name}</div>
      <dl className="nb-hovercard__facts">
        {facts.map(([label, value, key]) => (
          <div key={key} className="nb-hovercard__row">
            <dt>{label}</dt>
            <dd data-testid={`hover-card-${key}`}>{value}</dd>
          </div>
        ))}
      </dl>
    </div>,
    document.body,
  );
}
