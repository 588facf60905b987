import path from 'node:path';
import { badParameter } from '../../lib/errors.ts';

const MAX_NAME_BYTES = 255;
// C0 and C1 control characters, and DEL
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

/**
 * A file or folder name as a person gave it, checked so it is one safe path segment on every
 * disk: not empty, not `.` or `..`, no `/`, `\`, NUL or control characters, at most 255 bytes.
 */
export function checkName(raw: unknown): string {
  if (typeof raw !== 'string') throw badParameter('Enter a name');
  const name = raw.normalize('NFC');
  if (name.trim() === '') throw badParameter('The name cannot be empty');
  if (name === '.' || name === '..') throw badParameter('"." and ".." cannot be used as names');
  if (name.includes('/') || name.includes('\\'))
    throw badParameter('A name cannot contain "/" or "\\"');
  if (CONTROL.test(name)) throw badParameter('A name cannot contain control characters');
  if (Buffer.byteLength(name, 'utf8') > MAX_NAME_BYTES) {
    throw badParameter(`The name is too long (at most ${MAX_NAME_BYTES} bytes)`);
  }
  return name;
}

/**
 * A folder path from the client (`/a/b`, `a/b/`, '' or 'undefined' for the root) as its segments,
 * each checked like a name, so no path ever escapes the user's tree.
 */
export function parseFolderPath(raw: unknown): string[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'string') throw badParameter('A folder path must be text');
  const text = raw;
  if (text === '' || text === '/' || text === 'undefined' || text === 'null') return [];
  return text
    .split('/')
    .filter((s) => s !== '')
    .map((s) => checkName(s));
}

/** `/`, `/a/`, `/a/b/`: the form the `path` column holds. */
export function folderPathOf(segments: string[]): string {
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

export function suffixOf(name: string): string {
  const ext = path.extname(name);
  return ext.length > 1 ? ext.slice(1).toLowerCase().slice(0, 64) : '';
}

/** The next free name for a copy or a restore: `a.txt` → `a(1).txt`, `dir` → `dir(1)`. */
export function numberedName(name: string, n: number, isFolder: boolean): string {
  const ext = isFolder ? '' : path.extname(name);
  const base = ext && ext.length < name.length ? name.slice(0, -ext.length) : name;
  const candidate = `${base}(${n})${ext && ext.length < name.length ? ext : ''}`;
  return Buffer.byteLength(candidate) > 255 ? `${n}-${name}`.slice(0, 200) : candidate;
}

/** Escape for LIKE with `escape '\'`. */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);
