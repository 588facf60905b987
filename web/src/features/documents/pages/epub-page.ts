import ePub, { type NavItem } from 'epubjs';
import { el, failureOf, fileAddress, startPage, statusLine, text, toolButton } from './viewer-page';

/**
 * The bundled EPUB viewer page (`/resource/epubjs/viewer.html?url=…`, the Preview Config's
 * built-in): epub.js paginates the book in views sandboxed without scripts (the page's policy
 * forbids them too), with previous/next, the table of contents and the text size.
 */

const FONT_STEPS = [80, 90, 100, 115, 130, 150, 175];

async function main(): Promise<void> {
  const status = statusLine();
  status.show(text('loading'));
  let file: URL;
  try {
    file = fileAddress('url');
  } catch (err) {
    status.show((err as Error).message, true);
    return;
  }

  const previous = toolButton('‹', text('epub.previous'), 'epub-previous');
  const next = toolButton('›', text('epub.next'), 'epub-next');
  const contents = el('select', {
    'aria-label': text('epub.contents'),
    'data-testid': 'epub-contents',
    class: 'nb-doc-wide',
  });
  const smaller = toolButton('A−', text('epub.fontSmaller'), 'epub-smaller');
  const larger = toolButton('A+', text('epub.fontLarger'), 'epub-larger');
  const where = el('span', { 'data-testid': 'epub-location', 'aria-live': 'polite' });
  const toolbar = el(
    'div',
    { class: 'nb-doc-toolbar', role: 'toolbar' },
    previous,
    next,
    contents,
    el('span', { class: 'nb-doc-spacer' }),
    where,
    el('span', { class: 'nb-doc-spacer' }),
    smaller,
    larger,
  );
  const area = el('div', { class: 'nb-doc-area nb-epub-area', 'data-testid': 'epub-viewer' });
  document.body.prepend(toolbar, area);

  let bytes: ArrayBuffer;
  try {
    const response = await fetch(file, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(await failureOf(response));
    bytes = await response.arrayBuffer();
  } catch (err) {
    status.show((err as Error).message || text('failed'), true);
    return;
  }

  try {
    const book = ePub(bytes);
    const rendition = book.renderTo(area, {
      width: '100%',
      height: '100%',
      flow: 'paginated',
      spread: 'auto',
      allowScriptedContent: false,
    });
    let fontStep = FONT_STEPS.indexOf(100);
    const applyFont = () => rendition.themes.fontSize(`${FONT_STEPS[fontStep]}%`);

    const navigation = await book.loaded.navigation;
    const addEntries = (items: NavItem[], depth: number) => {
      for (const item of items) {
        contents.append(
          el('option', { value: item.href }, `${'\u00a0'.repeat(depth * 2)}${item.label.trim()}`),
        );
        if (item.subitems?.length) addEntries(item.subitems, depth + 1);
      }
    };
    addEntries(navigation.toc, 0);
    contents.hidden = navigation.toc.length === 0;

    rendition.on(
      'relocated',
      (location: {
        start: { displayed: { page: number; total: number } };
        atStart?: boolean;
        atEnd?: boolean;
      }) => {
        previous.disabled = Boolean(location.atStart);
        next.disabled = Boolean(location.atEnd);
        const { page, total } = location.start.displayed;
        where.textContent = total ? `${page} / ${total}` : '';
      },
    );
    const keys = (event: KeyboardEvent) => {
      if (event.key === 'ArrowRight' || event.key === 'PageDown') void rendition.next();
      if (event.key === 'ArrowLeft' || event.key === 'PageUp') void rendition.prev();
    };
    rendition.on('keyup', keys);
    window.addEventListener('keyup', keys);
    previous.addEventListener('click', () => void rendition.prev());
    next.addEventListener('click', () => void rendition.next());
    contents.addEventListener('change', () => void rendition.display(contents.value));
    smaller.addEventListener('click', () => {
      fontStep = Math.max(0, fontStep - 1);
      applyFont();
    });
    larger.addEventListener('click', () => {
      fontStep = Math.min(FONT_STEPS.length - 1, fontStep + 1);
      applyFont();
    });
    await rendition.display();
    status.hide();
  } catch (err) {
    status.show(text('failed'), true);
    console.warn(err);
  }
}

startPage(main);
