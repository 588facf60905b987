/**
 * Calls `draw` once an element stands at its own size on the page: not 0×0, and not scaled by
 * the opening animation of the dialog it is in. A widget that measures itself as it starts
 * (the mind map does) otherwise draws at that passing size, or refuses a 0×0 one and draws
 * nothing. Returns the function that stops waiting.
 */
export function whenLaidOut(el: HTMLElement, draw: () => void): () => void {
  let frame = 0;
  const check = () => {
    const rect = el.getBoundingClientRect();
    // the layout size knows no transform, the box on screen does; they agree once it stands
    const standing =
      el.offsetWidth > 0 &&
      el.offsetHeight > 0 &&
      Math.abs(rect.width - el.offsetWidth) < 1 &&
      Math.abs(rect.height - el.offsetHeight) < 1;
    if (standing) draw();
    else frame = requestAnimationFrame(check);
  };
  check();
  return () => cancelAnimationFrame(frame);
}

/**
 * Calls `resized` whenever the element's size changes while it has one (not hidden). The call
 * waits until the element stands at its own size, as `whenLaidOut` does: a dialog that zooms in
 * or out as the window changes would otherwise be measured at a passing, scaled size.
 */
export function onResize(el: HTMLElement, resized: () => void): () => void {
  let stopWaiting = () => {};
  const observer = new ResizeObserver(() => {
    if (el.offsetWidth === 0 || el.offsetHeight === 0) return;
    stopWaiting();
    stopWaiting = whenLaidOut(el, resized);
  });
  observer.observe(el);
  return () => {
    stopWaiting();
    observer.disconnect();
  };
}
