import fsp from 'node:fs/promises';
import path from 'node:path';
import { DOCUMENT_KINDS, extractDocument } from './documents.ts';
import {
  isScanned,
  pagesWithImages,
  pdfPages,
  pdfToolsAvailable,
  renderPage,
  scannedPages,
} from './pdf.ts';
import type { Ocr, OcrEngineName } from './ocr.ts';
import { readTextFile, tidy } from './text.ts';

export type ContentKind = 'text' | 'pdf' | 'document' | 'image' | 'sniff';

const TEXT = new Set(
  (
    'txt text md markdown mdown csv tsv json jsonl xml yaml yml toml ini cfg conf properties env log ' +
    'js mjs cjs ts mts cts tsx jsx py pyw java kt kts scala groovy gradle go rs rb php pl pm lua r ' +
    'swift m mm c h cc cpp cxx hpp hh cs fs vb sh bash zsh fish ps1 bat cmd sql css scss sass less ' +
    'html htm xhtml vue svelte astro tex bib rst adoc asciidoc org srt vtt ass lrc graphql gql proto ' +
    'dockerfile makefile cmake mk nix tf hcl mind'
  ).split(' '),
);
const IMAGES = new Set(['jpg', 'jpeg', 'png', 'bmp', 'gif', 'tif', 'tiff', 'webp']);
/** Types whose bytes never hold searchable text. */
const NEVER = new Set(['video', 'audio', 'archive', 'folder']);
/** Files of unknown type bigger than this are not opened to look for text. */
const SNIFF_MAX_BYTES = 64 * 1024 * 1024;
/** Images bigger than this are not read by OCR. */
const OCR_MAX_BYTES = 40 * 1024 * 1024;
/** Scanned pages read by OCR per PDF at most. */
const OCR_MAX_PAGES = 30;

/** What kind of reading a file gets, from its suffix and type; null: nothing to read. */
export function contentKindOf(file: {
  suffix: string;
  fileType: string;
  isFolder: number;
  size: number;
}): ContentKind | null {
  if (file.isFolder) return null;
  const suffix = file.suffix.toLowerCase();
  if (TEXT.has(suffix)) return 'text';
  if (suffix === 'pdf') return 'pdf';
  if (suffix in DOCUMENT_KINDS) return 'document';
  if (IMAGES.has(suffix)) return file.size <= OCR_MAX_BYTES ? 'image' : null;
  if (NEVER.has(file.fileType) || file.fileType === 'image' || file.fileType === 'document')
    return null;
  return file.size <= SNIFF_MAX_BYTES ? 'sniff' : null;
}

export interface Extracted {
  text: string;
  /** The file needs OCR (an image, or a PDF made of scans) to say more. */
  needsOcr: boolean;
}

/** Text of a file without OCR. */
export async function extractText(
  file: string,
  kind: ContentKind,
  suffix: string,
  signal: AbortSignal,
): Promise<Extracted> {
  switch (kind) {
    case 'text':
    case 'sniff':
      return { text: tidy((await readTextFile(file)) ?? ''), needsOcr: false };
    case 'document':
      return {
        text: await extractDocument(file, DOCUMENT_KINDS[suffix.toLowerCase()]!, signal),
        needsOcr: false,
      };
    case 'pdf': {
      if (!pdfToolsAvailable()) throw new Error('pdftotext (poppler-utils) is not installed');
      const pages = await pdfPages(file, signal);
      const scanned = isScanned(pages) && isScanned(pages, await pagesWithImages(file, signal));
      return { text: tidy(pages.join('\n')), needsOcr: scanned };
    }
    case 'image':
      return { text: '', needsOcr: true };
  }
}

/** Text of an image, or of a PDF with its scanned pages read by OCR. */
export async function extractWithOcr(
  file: string,
  kind: ContentKind,
  ocr: Ocr,
  engine: OcrEngineName,
  tmpDir: string,
  signal: AbortSignal,
): Promise<string> {
  if (kind === 'image') return ocr.recognize(file, engine, signal);
  if (kind !== 'pdf') return '';
  const pages = await pdfPages(file, signal);
  const scanned = scannedPages(pages, await pagesWithImages(file, signal)).slice(0, OCR_MAX_PAGES);
  await fsp.mkdir(tmpDir, { recursive: true });
  try {
    for (const page of scanned) {
      signal.throwIfAborted();
      const image = await renderPage(file, page, path.join(tmpDir, `page-${page}`), signal);
      pages[page - 1] = await ocr.recognize(image, engine, signal);
      await fsp.rm(image, { force: true });
    }
  } finally {
    await fsp.rm(tmpDir, { recursive: true, force: true });
  }
  return tidy(pages.join('\n'));
}
