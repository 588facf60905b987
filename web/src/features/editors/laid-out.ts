/** Whether no transform (an opening dialog's zoom) scales the element on screen. */
function standsAtOwnSize(el: HTMLElement): boolean {
  const rect = el.getBoundingClientRect();
  // the layout size knows no transform, the box on screen does; they agree once it stands
  return Math.abs(rect.width - el.offsetWidth) < 1 && Math.abs(rect.height - el.offsetHeight) < 1;
}

/**
 * Calls `draw` once an element stands at its own size on the page: not 0×0, and not scaled by
 * the opening animation of the dialog it is in. A widget that measures itself as it starts
 * (the mind map does) otherwise draws at that passing size, or refuses a 0×0 one and draws
 * nothing. Returns the function that stops waiting.
 */
export function whenLaidOut(el: HTMLElement, draw: () => void): () => void {
  let frame = 0;
  const check = () => {
    if (el.offsetWidth > 0 && el.offsetHeight > 0 && standsAtOwnSize(el)) draw();
    else frame = requestAnimationFrame(check);
  };
  check();
  return () => cancelAnimationFrame(frame);
}

/** How long the size is followed after a change, for a layout that settles in steps. */
const FOLLOW_MS = 1000;

/**
 * Calls `resized` whenever the element's size changes while it has one (not hidden). The call
 * waits until the element stands at its own size, as `whenLaidOut` does: a dialog that zooms in
 * or out as the window changes would otherwise be measured at a passing, scaled size. After a
 * change the size is followed frame by frame for a moment, so a layout that settles in several
 * steps (a window resized, then the page's own phone layout) is drawn at the size it ends at.
 */
export function onResize(el: HTMLElement, resized: () => void): () => void {
  let drawnAt = `${el.offsetWidth}x${el.offsetHeight}`;
  let frame = 0;
  let followUntil = 0;
  const follow = () => {
    frame = 0;
    const size = `${el.offsetWidth}x${el.offsetHeight}`;
    const shown = el.offsetWidth > 0 && el.offsetHeight > 0;
    const standing = shown && standsAtOwnSize(el);
    if (standing && size !== drawnAt) {
      drawnAt = size;
      resized();
    }
    // a passing transform is waited out, however long the dialog takes to stand
    if (performance.now() < followUntil || (shown && !standing)) {
      frame = requestAnimationFrame(follow);
    }
  };
  const changed = () => {
    followUntil = performance.now() + FOLLOW_MS;
    if (!frame) follow();
  };
  const observer = new ResizeObserver(changed);
  observer.observe(el);
  window.addEventListener('resize', changed);
  return () => {
    cancelAnimationFrame(frame);
    observer.disconnect();
    window.removeEventListener('resize', changed);
  };
}
