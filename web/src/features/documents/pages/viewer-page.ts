import i18n, { loadDriveTexts, startLanguage } from '../../../i18n';
import '../../../i18n/drive-texts';
import './viewer-page.css';

/** The texts of the `documents` namespace, for the viewer pages (they run outside React). */
export const text = i18n.getFixedT(null, 'documents');

/** Runs a viewer page once the remembered language's texts are here. */
export function startPage(main: () => Promise<void>): void {
  void startLanguage()
    .then(loadDriveTexts)
    .finally(() => void main());
}

/**
 * The file a viewer page was given (`?file=` for the PDF viewer, `?url=` for the EPUB one):
 * an address of this drive only, so the page never fetches, shows or frames anyone else's.
 */
export function fileAddress(param: 'file' | 'url'): URL {
  const given = new URLSearchParams(window.location.search).get(param);
  if (!given) throw new Error(text('noFile'));
  let url: URL;
  try {
    url = new URL(given, window.location.origin);
  } catch {
    throw new Error(text('badAddress'));
  }
  if (url.origin !== window.location.origin || !url.pathname.startsWith('/api/'))
    throw new Error(text('badAddress'));
  return url;
}

/** An element with a class, children and attributes: the pages build their few controls by hand. */
export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) node.setAttribute(name, value);
  node.append(...children);
  return node;
}

/** A toolbar button: an icon-like glyph, its name for screen readers and as a tooltip. */
export function toolButton(glyph: string, label: string, testId: string): HTMLButtonElement {
  return el(
    'button',
    { type: 'button', 'aria-label': label, title: label, 'data-testid': testId },
    glyph,
  );
}

/** The page's one message line (loading, failure), over the document area. */
export function statusLine(): {
  show: (message: string, failed?: boolean) => void;
  hide: () => void;
} {
  const line = el('div', { class: 'nb-doc-status', role: 'status', 'data-testid': 'doc-status' });
  document.body.append(line);
  return {
    show: (message, failed = false) => {
      line.textContent = message;
      line.classList.toggle('nb-doc-status--failed', failed);
      line.hidden = false;
    },
    hide: () => {
      line.hidden = true;
    },
  };
}

/** The error a failed load shows: the server's message when it answered with one. */
export async function failureOf(response: Response): Promise<string> {
  try {
    const body = (await response.json()) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON
  }
  return text('failed');
}
