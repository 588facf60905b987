import path from 'node:path';
import { findProgram, runProgram } from '../../search/content/tools.ts';

/** Whether poppler's `pdftoppm` is here to draw a PDF's first page. */
export const canDrawPdf = () => findProgram('pdftoppm') !== null;

/**
 * Draw the first page of a PDF as a PNG of at most `side` pixels on its longer side into
 * `workDir`; returns the file's name there.
 */
export async function firstPageOf(
  pdf: string,
  side: number,
  workDir: string,
  signal: AbortSignal,
): Promise<string> {
  const program = findProgram('pdftoppm');
  if (!program) throw new Error('pdftoppm is not installed');
  const stem = path.join(workDir, 'page');
  await runProgram(
    program,
    ['-f', '1', '-l', '1', '-singlefile', '-png', '-scale-to', String(side), pdf, stem],
    { signal, timeoutMs: 60_000, sandbox: { read: [pdf], write: [workDir] } },
  );
  return 'page.png';
}
