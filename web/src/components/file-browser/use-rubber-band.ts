import { useEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';
import type { CollectionHandlers } from './collection-types';
import { indexesInRect, normalizeRect, type ItemLayout, type Rect } from '../../lib/selection';

interface MarqueeState {
  startX: number;
  startY: number;
  clientX: number;
  clientY: number;
  additive: boolean;
  active: boolean;
  pointerId: number;
}

/**
 * The rubber band of the listing: a mouse drag from the background selects what it touches,
 * scrolling when it nears an edge. `justMarqueed` tells the click that ends it from a click.
 */
export function useRubberBand(
  scrollRef: RefObject<HTMLDivElement | null>,
  layout: () => ItemLayout,
  items: readonly { id: string }[],
  handlers: Pick<CollectionHandlers, 'onMarquee' | 'onMarqueeStart'>,
) {
  const [band, setBand] = useState<Rect | null>(null);
  const marquee = useRef<MarqueeState | null>(null);
  const justMarqueed = useRef(false);
  const autoScroll = useRef<number | null>(null);

  const contentPoint = (clientX: number, clientY: number) => {
    const element = scrollRef.current!;
    const box = element.getBoundingClientRect();
    return {
      x: clientX - box.left + element.scrollLeft,
      y: clientY - box.top + element.scrollTop,
    };
  };

  const updateBand = () => {
    const m = marquee.current;
    if (!m?.active) return;
    const end = contentPoint(m.clientX, m.clientY);
    const rect = normalizeRect(m.startX, m.startY, end.x, end.y);
    setBand(rect);
    const ids = indexesInRect(layout(), rect, items.length).map((i) => items[i]!.id);
    handlers.onMarquee(ids, m.additive);
  };

  const stopAutoScroll = () => {
    if (autoScroll.current !== null) cancelAnimationFrame(autoScroll.current);
    autoScroll.current = null;
  };

  const runAutoScroll = () => {
    const element = scrollRef.current;
    const m = marquee.current;
    if (!element || !m?.active) return stopAutoScroll();
    const box = element.getBoundingClientRect();
    const edge = 36;
    let dy = 0;
    if (m.clientY < box.top + edge) dy = -Math.ceil((box.top + edge - m.clientY) / 3);
    else if (m.clientY > box.bottom - edge) dy = Math.ceil((m.clientY - box.bottom + edge) / 3);
    if (dy !== 0) {
      element.scrollTop += dy;
      updateBand();
      autoScroll.current = requestAnimationFrame(runAutoScroll);
    } else stopAutoScroll();
  };

  const onPointerDown = (event: PointerEvent<HTMLDivElement>) => {
    if (event.button !== 0 || event.pointerType === 'touch') return;
    const target = event.target as HTMLElement;
    if (target.closest('[data-drag-handle], input, button, a, .nb-list-head')) return;
    // the scrollbar
    if (
      event.clientX >
      event.currentTarget.getBoundingClientRect().left + event.currentTarget.clientWidth
    )
      return;
    const start = contentPoint(event.clientX, event.clientY);
    marquee.current = {
      startX: start.x,
      startY: start.y,
      clientX: event.clientX,
      clientY: event.clientY,
      additive: event.ctrlKey || event.metaKey || event.shiftKey,
      active: false,
      pointerId: event.pointerId,
    };
  };

  const onPointerMove = (event: PointerEvent<HTMLDivElement>) => {
    const m = marquee.current;
    if (!m || m.pointerId !== event.pointerId) return;
    m.clientX = event.clientX;
    m.clientY = event.clientY;
    if (!m.active) {
      const now = contentPoint(event.clientX, event.clientY);
      if (Math.hypot(now.x - m.startX, now.y - m.startY) < 5) return;
      m.active = true;
      event.currentTarget.setPointerCapture(event.pointerId);
      handlers.onMarqueeStart();
    }
    event.preventDefault();
    updateBand();
    if (autoScroll.current === null) autoScroll.current = requestAnimationFrame(runAutoScroll);
  };

  const endMarquee = (event: PointerEvent<HTMLDivElement>) => {
    const m = marquee.current;
    if (!m || m.pointerId !== event.pointerId) return;
    if (m.active) {
      justMarqueed.current = true;
      window.setTimeout(() => (justMarqueed.current = false), 0);
    }
    marquee.current = null;
    stopAutoScroll();
    setBand(null);
  };

  useEffect(() => stopAutoScroll, []);

  return {
    band,
    justMarqueed,
    pointerHandlers: {
      onPointerDown,
      onPointerMove,
      onPointerUp: endMarquee,
      onPointerCancel: endMarquee,
    },
  };
}
