import { useEffect, useRef, useState, type PointerEvent, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';

/** The minimap's width in CSS pixels; a character is one pixel wide in it. */
const WIDTH = 84;
/** A line's height in the minimap, at most (smaller when the text is taller than the map). */
const MAX_LINE = 2;

/**
 * The whole text in miniature beside it, each run of characters a bar, with the part on
 * screen marked: a click or a drag on it scrolls there.
 */
export function Minimap({
  text,
  scrollerRef,
  lineHeight,
  padTop,
  lineCount,
}: {
  text: string;
  scrollerRef: RefObject<HTMLDivElement | null>;
  lineHeight: number;
  padTop: number;
  lineCount: number;
}) {
  const { t } = useTranslation('editors');
  const canvas = useRef<HTMLCanvasElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [height, setHeight] = useState(0);
  const [view, setView] = useState({ top: 0, size: 0 });
  const perLine = Math.min(MAX_LINE, height > 0 ? height / Math.max(lineCount, 1) : MAX_LINE);

  // the map's own height follows the window
  useEffect(() => {
    const element = box.current;
    if (!element) return;
    const observer = new ResizeObserver(() => setHeight(element.clientHeight));
    observer.observe(element);
    setHeight(element.clientHeight);
    return () => observer.disconnect();
  }, []);

  // the text drawn once per change, at the screen's pixel density
  useEffect(() => {
    const element = canvas.current;
    if (!element || height === 0) return;
    const frame = requestAnimationFrame(() => {
      const ratio = window.devicePixelRatio || 1;
      element.width = WIDTH * ratio;
      element.height = height * ratio;
      const context = element.getContext('2d');
      if (!context) return;
      context.setTransform(ratio, 0, 0, ratio, 0, 0);
      context.clearRect(0, 0, WIDTH, height);
      context.fillStyle = getComputedStyle(element).color;
      context.globalAlpha = 0.55;
      const bar = Math.max(perLine * 0.7, 0.5);
      let line = 0;
      for (const content of text.split('\n')) {
        const y = line * perLine;
        if (y > height) break;
        let column = 0;
        let runStart = -1;
        for (let i = 0; i <= content.length && column < WIDTH; i++) {
          const char = content[i];
          const blank = char === undefined || char === ' ' || char === '\t';
          if (!blank && runStart < 0) runStart = column;
          if (blank && runStart >= 0) {
            context.fillRect(runStart, y, column - runStart, bar);
            runStart = -1;
          }
          column += char === '\t' ? 4 : 1;
        }
        line++;
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [text, height, perLine]);

  // the part on screen, as the text scrolls
  useEffect(() => {
    const element = scrollerRef.current;
    if (!element) return;
    const follow = () => {
      const first = Math.max(0, (element.scrollTop - padTop) / lineHeight);
      const shown = element.clientHeight / lineHeight;
      setView({ top: first * perLine, size: Math.max(shown * perLine, 8) });
    };
    follow();
    element.addEventListener('scroll', follow, { passive: true });
    const observer = new ResizeObserver(follow);
    observer.observe(element);
    return () => {
      element.removeEventListener('scroll', follow);
      observer.disconnect();
    };
  }, [scrollerRef, lineHeight, padTop, perLine]);

  const scrollTo = (event: PointerEvent<HTMLDivElement>) => {
    const element = scrollerRef.current;
    if (!element) return;
    const y = event.clientY - event.currentTarget.getBoundingClientRect().top;
    const line = y / perLine;
    element.scrollTop = padTop + line * lineHeight - element.clientHeight / 2;
  };

  return (
    <div
      ref={box}
      className="nb-minimap"
      data-testid="text-editor-minimap"
      role="scrollbar"
      aria-label={t('text.minimap')}
      aria-valuenow={Math.round(view.top)}
      onPointerDown={(event) => {
        event.currentTarget.setPointerCapture(event.pointerId);
        scrollTo(event);
      }}
      onPointerMove={(event) => {
        if (event.buttons === 1) scrollTo(event);
      }}
    >
      <canvas ref={canvas} className="nb-minimap__canvas" style={{ width: WIDTH, height }} />
      <div className="nb-minimap__view" style={{ top: view.top, height: view.size }} />
    </div>
  );
}
