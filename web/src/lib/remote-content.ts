/**
 * Remote content held back in rendered documents: an image from another site tells that site
 * when and from where a document is read, so a rendered document fetches nothing from another
 * origin until the reader asks for it. The drive's own addresses (relative images, `data:`,
 * `blob:`) load as usual.
 */

/** Schemes that fetch nothing from anywhere. */
const LOCAL_SCHEMES = new Set(['data:', 'blob:', 'about:', 'javascript:']);

/** Whether a browser loading `value` (read against `base`) would ask another origin for it. */
export function isRemoteAddress(value: string, base: string): boolean {
  const trimmed = value.trim();
  if (trimmed === '') return false;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    // the browser would not fetch what it cannot read either
    return false;
  }
  if (LOCAL_SCHEMES.has(url.protocol)) return false;
  return url.origin !== new URL(base).origin;
}

/** Whether a `srcset` names a remote address among its candidates. */
export function srcsetIsRemote(srcset: string, base: string): boolean {
  // a candidate is an address and a width or density; both are read as addresses here, a
  // descriptor ("2x") being a harmless relative one
  return srcset.split(/[\s,]+/).some((part) => isRemoteAddress(part, base));
}

/** Whether CSS text (a `style` attribute or element) loads a remote address. */
export function cssIsRemote(css: string, base: string): boolean {
  const addresses = [
    ...css.matchAll(/url\(\s*(['"]?)(.*?)\1\s*\)/gi),
    ...css.matchAll(/@import\s+(['"])(.*?)\1/gi),
  ].map((match) => match[2] ?? '');
  // an escape could hide an address from the pattern: such CSS is held back whole
  return /\\/.test(css) || addresses.some((address) => isRemoteAddress(address, base));
}

/** The attribute a held-back address waits in. */
const HELD = 'data-nb-remote-';
/** The class of a held-back image, drawn as a placeholder. */
export const HELD_IMAGE_CLASS = 'nb-remote-held';

/** A grey picture frame: what stands in for a held-back image. */
export const REMOTE_PLACEHOLDER =
  'data:image/svg+xml,' +
  encodeURIComponent(
    '<svg xmlns="http://www.w3.org/2000/svg" width="48" height="48" viewBox="0 0 48 48">' +
      '<rect x="1" y="1" width="46" height="46" rx="4" fill="#f0f0f0" stroke="#bfbfbf" stroke-dasharray="4 3"/>' +
      '<path d="M12 34l8-10 6 7 4-5 6 8z" fill="#bfbfbf"/><circle cx="31" cy="17" r="3" fill="#bfbfbf"/></svg>',
  );

/** Elements whose `href` is fetched as the element appears (an `<a>`'s is only followed). */
const FETCHED_HREF = new Set(['image', 'use', 'feimage', 'link']);

/** The attributes of `element` that would fetch a remote address, by name. */
function remoteAttributes(element: Element, base: string): string[] {
  const found: string[] = [];
  for (const { name, value } of [...element.attributes]) {
    const lower = name.toLowerCase();
    const remote =
      lower === 'srcset' || lower === 'imagesrcset'
        ? srcsetIsRemote(value, base)
        : lower === 'style'
          ? cssIsRemote(value, base)
          : lower === 'src' ||
              lower === 'poster' ||
              lower === 'background' ||
              lower === 'data' ||
              lower === 'lowsrc' ||
              lower === 'xlink:href' ||
              (lower === 'href' && FETCHED_HREF.has(element.localName.toLowerCase()))
            ? isRemoteAddress(value, base)
            : false;
    if (remote) found.push(name);
  }
  return found;
}

const heldName = (attribute: string) => HELD + attribute.toLowerCase().replace(/[^a-z0-9-]/g, '_');

/**
 * HTML with every remote address held back: each such attribute moves to a `data-nb-remote-*`
 * one, a held image shows a placeholder, a style sheet loading one is emptied. The markup is
 * read in a template, which loads nothing. Answers how many elements were held.
 */
export function holdRemote(html: string, base: string): { html: string; held: number } {
  if (!/(src|href|poster|background|data|style|url|@import)/i.test(html)) return { html, held: 0 };
  const template = document.createElement('template');
  template.innerHTML = html;
  let held = 0;
  for (const element of template.content.querySelectorAll('*')) {
    if (element.localName === 'style' && cssIsRemote(element.textContent ?? '', base)) {
      element.setAttribute(`${HELD}text`, element.textContent ?? '');
      element.textContent = '';
      held += 1;
      continue;
    }
    const names = remoteAttributes(element, base);
    if (names.length === 0) continue;
    const image = element.localName === 'img';
    // an image shows the placeholder in place of its own address, remote or not
    if (image && !names.includes('src')) {
      if (element.hasAttribute('src')) names.push('src');
      else element.setAttribute(`${HELD}nosrc`, '');
    }
    for (const name of names) {
      element.setAttribute(heldName(name), element.getAttribute(name) ?? '');
      element.removeAttribute(name);
    }
    if (image) {
      element.setAttribute('src', REMOTE_PLACEHOLDER);
      element.classList.add(HELD_IMAGE_CLASS);
    }
    held += 1;
  }
  return held === 0 ? { html, held } : { html: template.innerHTML, held };
}

/** Put the held-back addresses of `root`'s elements back: the browser now loads them. */
function releaseElements(root: ParentNode): void {
  for (const element of root.querySelectorAll('*')) {
    const held = [...element.attributes].filter((a) => a.name.startsWith(HELD));
    if (held.length === 0) continue;
    for (const { name, value } of held) {
      element.removeAttribute(name);
      const original = name.slice(HELD.length);
      if (original === 'text') element.textContent = value;
      else if (original === 'nosrc') element.removeAttribute('src');
      else element.setAttribute(original === 'xlink_href' ? 'xlink:href' : original, value);
    }
    element.classList.remove(HELD_IMAGE_CLASS);
    if (element.classList.length === 0) element.removeAttribute('class');
  }
}

/** HTML with its held-back addresses back in place (what the renderer first made). */
export function releaseRemote(html: string): string {
  if (!html.includes(HELD)) return html;
  const template = document.createElement('template');
  template.innerHTML = html;
  releaseElements(template.content);
  return template.innerHTML;
}

/** Load what is held back in a live element (the reader asked for it). */
export function releaseRemoteIn(root: ParentNode): void {
  releaseElements(root);
}
