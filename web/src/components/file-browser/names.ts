/** The most bytes a name may have (one path segment on every disk). */
export const MAX_NAME_BYTES = 255;

export type NameProblem = 'empty' | 'dots' | 'slash' | 'control' | 'tooLong';

// C0 and C1 control characters, and DEL: the same set the server refuses
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * Checks a new file or folder name the way the server does, so most mistakes show before the
 * request: not empty, not `.`/`..`, no `/` or `\`, no control characters, at most 255 UTF-8 bytes.
 */
export function nameProblem(raw: string): NameProblem | null {
  const name = raw.normalize('NFC');
  if (name.trim() === '') return 'empty';
  if (name === '.' || name === '..') return 'dots';
  if (name.includes('/') || name.includes('\\')) return 'slash';
  if (CONTROL.test(name)) return 'control';
  if (new TextEncoder().encode(name).length > MAX_NAME_BYTES) return 'tooLong';
  return null;
}

/** Where the base name ends: the selection a rename field starts with (`report` of `report.pdf`). */
export function baseNameEnd(name: string, isFolder: boolean): number {
  if (isFolder) return name.length;
  const dot = name.lastIndexOf('.');
  return dot > 0 ? dot : name.length;
}

/** A free name for a new item: `Untitled.txt`, `Untitled (2).txt`, … */
export function freeName(wanted: string, taken: ReadonlySet<string>): string {
  if (!taken.has(wanted)) return wanted;
  const dot = wanted.lastIndexOf('.');
  const base = dot > 0 ? wanted.slice(0, dot) : wanted;
  const ext = dot > 0 ? wanted.slice(dot) : '';
  for (let n = 2; ; n++) {
    const candidate = `${base} (${n})${ext}`;
    if (!taken.has(candidate)) return candidate;
  }
}
