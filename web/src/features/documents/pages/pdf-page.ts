import * as pdfjsLib from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';
import 'pdfjs-dist/web/pdf_viewer.css';
import { el, fileAddress, startPage, statusLine, text, toolButton } from './viewer-page';

/**
 * The bundled PDF viewer page (`/pdf.js/web/viewer.html?file=…`, the Preview Config's
 * built-in): pdf.js's page viewer with pages, zoom and find, reading the file in ranges.
 * Office documents open here too, as the PDF the server made of them.
 */

// the viewer components read the library from this global (pdf.js's own arrangement)
(globalThis as { pdfjsLib?: typeof pdfjsLib }).pdfjsLib = pdfjsLib;
pdfjsLib.GlobalWorkerOptions.workerSrc = workerUrl;

const ZOOMS = ['auto', 'page-width', 'page-fit', '0.5', '0.75', '1', '1.25', '1.5', '2', '3'];

async function main(): Promise<void> {
  const status = statusLine();
  status.show(text('loading'));
  let file: URL;
  try {
    file = fileAddress('file');
  } catch (err) {
    status.show((err as Error).message, true);
    return;
  }
  // an office document's PDF is made on its first view: that takes a few seconds
  if (/\/preview\/office$/.test(file.pathname)) status.show(text('converting'));
  const { EventBus, PDFLinkService, PDFViewer, PDFFindController } =
    await import('pdfjs-dist/web/pdf_viewer.mjs');

  // ---- the page's parts ----------------------------------------------------------------
  const previous = toolButton('‹', text('pdf.previous'), 'pdf-previous');
  const next = toolButton('›', text('pdf.next'), 'pdf-next');
  const pageInput = el('input', {
    class: 'nb-doc-page-input',
    inputmode: 'numeric',
    'aria-label': text('pdf.page'),
    'data-testid': 'pdf-page',
    value: '1',
  });
  const pageCount = el('span', { 'data-testid': 'pdf-pages' });
  const zoomOut = toolButton('−', text('pdf.zoomOut'), 'pdf-zoom-out');
  const zoomIn = toolButton('+', text('pdf.zoomIn'), 'pdf-zoom-in');
  const zoom = el('select', { 'aria-label': text('pdf.zoom'), class: 'nb-doc-wide' });
  for (const value of ZOOMS) {
    const label =
      value === 'auto'
        ? text('pdf.auto')
        : value === 'page-width'
          ? text('pdf.fitWidth')
          : value === 'page-fit'
            ? text('pdf.fitPage')
            : `${Math.round(Number(value) * 100)}%`;
    zoom.append(el('option', { value }, label));
  }
  const find = el('input', {
    class: 'nb-doc-find',
    type: 'search',
    placeholder: text('pdf.find'),
    'aria-label': text('pdf.find'),
    'data-testid': 'pdf-find',
  });
  const findResult = el('span', { class: 'nb-doc-wide', 'aria-live': 'polite' });
  const toolbar = el(
    'div',
    { class: 'nb-doc-toolbar', role: 'toolbar' },
    previous,
    next,
    pageInput,
    pageCount,
    el('span', { class: 'nb-doc-spacer' }),
    zoomOut,
    zoom,
    zoomIn,
    el('span', { class: 'nb-doc-spacer' }),
    find,
    findResult,
  );
  const viewerElement = el('div', { class: 'pdfViewer', 'data-testid': 'pdf-viewer' });
  const container = el('div', { class: 'nb-doc-area', tabindex: '0' }, viewerElement);
  document.body.prepend(toolbar, container);

  const eventBus = new EventBus();
  const linkService = new PDFLinkService({ eventBus });
  const findController = new PDFFindController({ eventBus, linkService });
  const viewer = new PDFViewer({
    container,
    viewer: viewerElement,
    eventBus,
    linkService,
    findController,
  });
  linkService.setViewer(viewer);

  const sync = () => {
    const page = viewer.currentPageNumber;
    pageInput.value = String(page);
    previous.disabled = page <= 1;
    next.disabled = page >= viewer.pagesCount;
  };
  eventBus.on('pagesinit', () => {
    viewer.currentScaleValue = 'auto';
    status.hide();
    sync();
  });
  eventBus.on('pagechanging', sync);
  eventBus.on('scalechanging', () => {
    const value = viewer.currentScaleValue;
    zoom.value = ZOOMS.includes(value) ? value : '';
  });
  eventBus.on(
    'updatefindmatchescount',
    ({ matchesCount }: { matchesCount: { current: number; total: number } }) => {
      findResult.textContent = matchesCount.total
        ? `${matchesCount.current}/${matchesCount.total}`
        : '';
    },
  );
  eventBus.on('updatefindcontrolstate', ({ state }: { state: number }) => {
    // 1: not found (pdf.js FindState.NOT_FOUND)
    if (state === 1) findResult.textContent = text('pdf.notFound');
  });

  previous.addEventListener('click', () => viewer.previousPage());
  next.addEventListener('click', () => viewer.nextPage());
  pageInput.addEventListener('change', () => {
    const page = Math.round(Number(pageInput.value));
    if (page >= 1 && page <= viewer.pagesCount) viewer.currentPageNumber = page;
    else sync();
  });
  zoomIn.addEventListener('click', () => viewer.increaseScale());
  zoomOut.addEventListener('click', () => viewer.decreaseScale());
  zoom.addEventListener('change', () => {
    viewer.currentScaleValue = zoom.value;
  });
  const search = (findPrevious = false, again = true) =>
    eventBus.dispatch('find', {
      source: find,
      type: again ? 'again' : '',
      query: find.value,
      caseSensitive: false,
      entireWord: false,
      highlightAll: true,
      findPrevious,
      matchDiacritics: false,
    });
  find.addEventListener('input', () => search(false, false));
  find.addEventListener('keydown', (event) => {
    if (event.key === 'Enter') search(event.shiftKey);
  });
  window.addEventListener('keydown', (event) => {
    if (event.target instanceof HTMLInputElement) return;
    if (event.key === 'ArrowRight' || event.key === 'PageDown') viewer.nextPage();
    else if (event.key === 'ArrowLeft' || event.key === 'PageUp') viewer.previousPage();
    else if ((event.ctrlKey || event.metaKey) && event.key === 'f') {
      event.preventDefault();
      find.focus();
    }
  });

  // ---- the document ----------------------------------------------------------------------
  const base = '/pdf.js/';
  const task = pdfjsLib.getDocument({
    url: file.href,
    isEvalSupported: false,
    cMapUrl: `${base}cmaps/`,
    cMapPacked: true,
    standardFontDataUrl: `${base}standard_fonts/`,
    wasmUrl: `${base}wasm/`,
    rangeChunkSize: 1024 * 1024,
  });
  let asked = false;
  task.onPassword = (answer: (password: string) => void) => {
    const password = window.prompt(text(asked ? 'pdf.wrongPassword' : 'pdf.password'));
    asked = true;
    if (password === null) void task.destroy();
    else answer(password);
  };
  try {
    const pdf = await task.promise;
    pageCount.textContent = text('pdf.ofPages', { count: pdf.numPages });
    viewer.setDocument(pdf);
    linkService.setDocument(pdf, null);
  } catch (err) {
    // the server's own message when it refused (a conversion that failed, a share's rules)
    const refused = await fetch(file, { headers: { range: 'bytes=0-0' } }).catch(() => null);
    let message = text('failed');
    if (refused && refused.headers.get('content-type')?.includes('json')) {
      const body = (await refused.json().catch(() => ({}))) as { message?: unknown };
      if (typeof body.message === 'string') message = body.message;
    }
    status.show(message, true);
    console.warn(err);
  }
}

startPage(main);
