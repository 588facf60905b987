import path from 'node:path';
import { findProgram, runProgram } from './tools.ts';
import { MAX_TEXT_BYTES } from './text.ts';

/** A page with fewer visible characters than this is taken for a scan. */
const SCANNED_PAGE_CHARS = 10;

export const pdfToolsAvailable = () => findProgram('pdftotext') !== null;

/** The text of a PDF, page by page (poppler's pdftotext), up to the text budget. */
export async function pdfPages(file: string, signal: AbortSignal): Promise<string[]> {
  const program = findProgram('pdftotext');
  if (!program) throw new Error('pdftotext (poppler-utils) is not installed');
  const out = await runProgram(program, ['-q', '-enc', 'UTF-8', '-eol', 'unix', file, '-'], {
    signal,
    maxOutput: MAX_TEXT_BYTES,
    timeoutMs: 300_000,
    sandbox: { read: [file], write: [] },
  });
  const pages = out.toString('utf8').split('\f');
  // the text ends with a form feed after the last page
  if (pages.length > 1 && pages[pages.length - 1]!.trim() === '') pages.pop();
  return pages;
}

/**
 * Page numbers (1-based) that hold (almost) no text but a picture: scanned pages, what OCR
 * reads. Without the list of pictures, every page without text counts.
 */
export function scannedPages(pages: string[], withImages?: ReadonlySet<number>): number[] {
  const out: number[] = [];
  pages.forEach((text, i) => {
    const empty = text.replace(/\s+/g, '').length < SCANNED_PAGE_CHARS;
    if (empty && (!withImages || withImages.has(i + 1))) out.push(i + 1);
  });
  return out;
}

/** A PDF counts as scanned when at least half of its pages are scans. */
export const isScanned = (pages: string[], withImages?: ReadonlySet<number>) =>
  pages.length > 0 && scannedPages(pages, withImages).length * 2 >= pages.length;

/** The pages that show pictures (poppler's pdfimages), or undefined when it cannot tell. */
export async function pagesWithImages(
  file: string,
  signal: AbortSignal,
): Promise<Set<number> | undefined> {
  const program = findProgram('pdfimages');
  if (!program) return undefined;
  try {
    const out = await runProgram(program, ['-list', file], {
      signal,
      timeoutMs: 60_000,
      maxOutput: 4 * 1024 * 1024,
      sandbox: { read: [file], write: [] },
    });
    const pages = new Set<number>();
    // "page num type width height ..." then a rule, then one line per picture
    for (const line of out.toString('utf8').split('\n').slice(2)) {
      const page = Number(line.trim().split(/\s+/)[0]);
      if (Number.isInteger(page) && page > 0) pages.add(page);
    }
    return pages;
  } catch {
    return undefined;
  }
}

/** Render one page to a grey PNG for OCR (`<prefix>.png`). */
export async function renderPage(
  file: string,
  page: number,
  outPrefix: string,
  signal: AbortSignal,
): Promise<string> {
  const program = findProgram('pdftoppm');
  if (!program) throw new Error('pdftoppm (poppler-utils) is not installed');
  await runProgram(
    program,
    [
      '-r',
      '300',
      '-gray',
      '-png',
      '-singlefile',
      '-f',
      String(page),
      '-l',
      String(page),
      file,
      outPrefix,
    ],
    { signal, timeoutMs: 120_000, sandbox: { read: [file], write: [path.dirname(outPrefix)] } },
  );
  return `${outPrefix}.png`;
}
