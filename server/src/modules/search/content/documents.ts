import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import yauzl from 'yauzl';
import { TextSink, tidy } from './text.ts';
import { XmlTextExtractor, type XmlTextOptions } from './xml-text.ts';

/** A zip holding more entries than this is not read (a document never has so many). */
const MAX_ENTRIES = 20_000;
/** Bytes read from one archive at most, whatever it claims to expand to. */
const MAX_INFLATED = 256 * 1024 * 1024;

const set = (...names: string[]) => new Set(names);

const WORD: XmlTextOptions = {
  textIn: set('w:t'),
  lineAfter: set('w:p', 'w:br', 'w:cr'),
  spaceAt: set('w:tab'),
};
const DRAWING: XmlTextOptions = { textIn: set('a:t'), lineAfter: set('a:p', 'a:br') };
const SHEET_STRINGS: XmlTextOptions = { textIn: set('t'), lineAfter: set('si', 'is') };
const OPEN_DOCUMENT: XmlTextOptions = {
  textIn: set('office:body'),
  lineAfter: set('text:p', 'text:h', 'text:line-break', 'table:table-row'),
  spaceAt: set('text:tab', 'text:s', 'table:table-cell'),
};
const XHTML: XmlTextOptions = {
  skipIn: set('head', 'script', 'style'),
  lineAfter: set(
    'p',
    'div',
    'br',
    'li',
    'tr',
    'h1',
    'h2',
    'h3',
    'h4',
    'h5',
    'h6',
    'blockquote',
    'section',
    'pre',
  ),
  spaceAt: set('td', 'th'),
};

interface Zip {
  names: string[];
  read(name: string): Promise<string>;
  stream(name: string, extractor: XmlTextExtractor, signal: AbortSignal): Promise<void>;
  close(): void;
}

async function openZip(file: string): Promise<Zip> {
  const zip = await yauzl.openPromise(file, { autoClose: false, decodeStrings: true });
  const entries = new Map<string, yauzl.Entry>();
  try {
    for await (const entry of zip.eachEntry()) {
      if (entries.size >= MAX_ENTRIES) break;
      if (!entry.fileName.endsWith('/')) entries.set(entry.fileName, entry);
    }
  } catch (err) {
    zip.close();
    throw err;
  }
  let inflated = 0;
  const pump = async (name: string, onText: (text: string) => boolean, signal?: AbortSignal) => {
    const entry = entries.get(name);
    if (!entry) return;
    const stream = await zip.openReadStreamPromise(entry);
    const decoder = new StringDecoder('utf8');
    try {
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        signal?.throwIfAborted();
        inflated += chunk.length;
        if (inflated > MAX_INFLATED) break;
        if (!onText(decoder.write(chunk))) break;
      }
      onText(decoder.end());
    } finally {
      stream.destroy();
    }
  };
  return {
    names: [...entries.keys()],
    async read(name) {
      const parts: string[] = [];
      let size = 0;
      await pump(name, (text) => {
        parts.push(text);
        size += text.length;
        return size < 4 * 1024 * 1024;
      });
      return parts.join('');
    },
    async stream(name, extractor, signal) {
      await pump(
        name,
        (text) => {
          extractor.write(text);
          return !extractor.full;
        },
        signal,
      );
      extractor.end();
    },
    close: () => zip.close(),
  };
}

/** Entries like `ppt/slides/slide12.xml`, in the order of their numbers. */
function numbered(names: string[], pattern: RegExp): string[] {
  return names
    .map((name) => ({ name, n: Number(pattern.exec(name)?.[1] ?? NaN) }))
    .filter((e) => Number.isFinite(e.n))
    .sort((a, b) => a.n - b.n)
    .map((e) => e.name);
}

const attr = (tag: string, name: string) =>
  new RegExp(`\\s${name}\\s*=\\s*"([^"]*)"`).exec(tag)?.[1] ??
  new RegExp(`\\s${name}\\s*=\\s*'([^']*)'`).exec(tag)?.[1];

/** The reading order of an EPUB: its spine, from the package document. */
async function epubParts(zip: Zip): Promise<string[]> {
  const container = await zip.read('META-INF/container.xml');
  const opfPath = /<rootfile\b[^>]*>/i.exec(container)?.[0];
  const fullPath = opfPath && attr(opfPath, 'full-path');
  const documents = zip.names.filter((n) => /\.x?html?$/i.test(n)).sort();
  if (!fullPath || !zip.names.includes(fullPath)) return documents;
  const opf = await zip.read(fullPath);
  const base = path.posix.dirname(fullPath);
  const hrefs = new Map<string, string>();
  for (const item of opf.match(/<(?:\w+:)?item\b[^>]*>/gi) ?? []) {
    const id = attr(item, 'id');
    const href = attr(item, 'href');
    if (id && href) hrefs.set(id, path.posix.normalize(path.posix.join(base, decodeURI(href))));
  }
  const spine: string[] = [];
  for (const ref of opf.match(/<(?:\w+:)?itemref\b[^>]*>/gi) ?? []) {
    const target = hrefs.get(attr(ref, 'idref') ?? '');
    if (target && zip.names.includes(target)) spine.push(target);
  }
  return spine.length > 0 ? spine : documents;
}

export type DocumentKind = 'docx' | 'xlsx' | 'pptx' | 'odf' | 'epub';

export const DOCUMENT_KINDS: Record<string, DocumentKind> = {
  docx: 'docx',
  docm: 'docx',
  dotx: 'docx',
  xlsx: 'xlsx',
  xlsm: 'xlsx',
  pptx: 'pptx',
  pptm: 'pptx',
  ppsx: 'pptx',
  odt: 'odf',
  ods: 'odf',
  odp: 'odf',
  epub: 'epub',
};

/** The text of an Office Open XML, OpenDocument or EPUB file, within the sink's budget. */
export async function extractDocument(
  file: string,
  kind: DocumentKind,
  signal: AbortSignal,
  sink = new TextSink(),
): Promise<string> {
  const zip = await openZip(file);
  try {
    const parts: Array<[string, XmlTextOptions]> = [];
    switch (kind) {
      case 'docx': {
        const extras = zip.names.filter((n) =>
          /^word\/(header|footer)\d*\.xml$|^word\/(footnotes|endnotes)\.xml$/.test(n),
        );
        for (const name of ['word/document.xml', ...extras.sort()]) parts.push([name, WORD]);
        break;
      }
      case 'xlsx': {
        const workbook = await zip.read('xl/workbook.xml');
        const sheets = (workbook.match(/<(?:\w+:)?sheet\b[^>]*>/g) ?? [])
          .map((tag) => attr(tag, 'name'))
          .filter(Boolean);
        if (sheets.length > 0) sink.push(`${sheets.join('\t')}\n`);
        parts.push(['xl/sharedStrings.xml', SHEET_STRINGS]);
        // strings typed into cells directly (inlineStr) live in the sheets
        for (const name of numbered(zip.names, /^xl\/worksheets\/sheet(\d+)\.xml$/))
          parts.push([name, { textIn: set('is'), lineAfter: set('is') }]);
        break;
      }
      case 'pptx': {
        for (const name of numbered(zip.names, /^ppt\/slides\/slide(\d+)\.xml$/))
          parts.push([name, DRAWING]);
        for (const name of numbered(zip.names, /^ppt\/notesSlides\/notesSlide(\d+)\.xml$/))
          parts.push([name, DRAWING]);
        break;
      }
      case 'odf':
        parts.push(['content.xml', OPEN_DOCUMENT]);
        break;
      case 'epub':
        for (const name of await epubParts(zip)) parts.push([name, XHTML]);
        break;
    }
    for (const [name, options] of parts) {
      if (sink.full) break;
      await zip.stream(name, new XmlTextExtractor(sink, options), signal);
      sink.push('\n');
    }
    return tidy(sink.text());
  } finally {
    zip.close();
  }
}
