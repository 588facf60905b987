import path from 'node:path';
import { MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_DEPTH } from '@nimbus/contract';
import { badParameter } from '../../lib/errors.ts';

// C0 and C1 control characters, and DEL
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
// marks that turn the text around them (`photo\u202Etxt.exe` shows as `photoexe.txt`)
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;
// names Windows takes for a device, whatever follows the first dot (`nul.txt` too)
const DEVICE = /^(con|prn|aux|nul|conin\$|conout\$|com[1-9¹²³]|lpt[1-9¹²³])$/i;

/**
 * One segment of a path that names an item already in the tree (a folder path to list, a file
 * to open): one safe path segment on every disk, not empty, not `.` or `..`, no `/`, `\`, NUL
 * or control characters, at most 255 bytes. Answers it in NFC.
 */
export function checkSegment(raw: unknown): string {
  // a name not given reads as an empty one (an empty query value is a value not given)
  if (typeof raw !== 'string') throw badParameter('Enter a name: it cannot be empty');
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
 * A name a person gives a new or renamed file or folder: a safe segment (`checkSegment`) that
 * also shows what it is on every system: no marks that reverse the text (they disguise
 * `exe` as `txt`), and not a name Windows reserves for a device (`CON`, `nul.txt`, `COM1 .`),
 * which a WebDAV client or an unpacked download there could not create or would write to the
 * device. Every path that creates or renames an item uses it.
 */
export function checkName(raw: unknown): string {
  const name = checkSegment(raw);
  if (BIDI.test(name))
    throw badParameter('A name cannot contain marks that change the direction of text');
  const stem = name
    .replace(/[. ]+$/, '')
    .split('.')[0]!
    .trimEnd();
  if (DEVICE.test(stem))
    throw badParameter(`"${name}" is a name Windows keeps for a device; choose another name`);
  return name;
}

/**
 * A path in a user's tree as segments, refused when it is longer than a disk holds
 * (MAX_PATH_BYTES, MAX_PATH_DEPTH); `what` names the field in the message.
 */
export function checkPathLength(segments: readonly string[], what = 'The path'): void {
  if (segments.length > MAX_PATH_DEPTH)
    throw badParameter(`${what} is too deep (at most ${MAX_PATH_DEPTH} folders)`);
  let bytes = 0;
  for (const s of segments) bytes += Buffer.byteLength(s, 'utf8') + 1;
  if (bytes > MAX_PATH_BYTES)
    throw badParameter(`${what} is too long (at most ${MAX_PATH_BYTES} bytes)`);
}

/** An item named `name` in the folder whose rows carry `prefix` (`/a/b/`) fits on the disk. */
export function checkPlace(prefix: string, name: string): void {
  checkPathLength([...prefix.split('/').filter(Boolean), name]);
}

/** The bytes and the folders of a path such as `/a/b/` (a prefix) as the path column holds it. */
const measure = (prefix: string) => ({
  bytes: Buffer.byteLength(prefix, 'utf8'),
  depth: prefix.split('/').length - 1,
});

/**
 * A folder whose rows carry `oldPrefix` below it (`/a/box/`) goes to `newPrefix`: its deepest
 * and longest descendant (`deepest`, as `FilesRepo.deepestBelow` measures it under the old
 * prefix) must still fit on the disk. `field` names what the client sent that would not fit.
 */
export function checkSubtreeMove(
  oldPrefix: string,
  newPrefix: string,
  deepest: { bytes: number; depth: number },
  field: string,
  what: string,
): void {
  if (deepest.bytes === 0) return;
  const from = measure(oldPrefix);
  const to = measure(newPrefix);
  if (deepest.depth - from.depth + to.depth > MAX_PATH_DEPTH)
    throw badParameter(
      `${what} would put an item inside the folder too deep (at most ${MAX_PATH_DEPTH} folders)`,
      { field },
    );
  if (deepest.bytes - from.bytes + to.bytes > MAX_PATH_BYTES)
    throw badParameter(
      `${what} would make the path of an item inside the folder too long (at most ${MAX_PATH_BYTES} bytes)`,
      { field },
    );
}

/**
 * A folder path from the client (`/a/b`, `a/b/`, '' or 'undefined' for the root) as its segments,
 * each checked like a segment and the whole like a path, so no path ever escapes the user's
 * tree or outgrows the disk. `rule` is `checkName` where the folders are to be created.
 */
export function parseFolderPath(
  raw: unknown,
  rule: (segment: string) => string = checkSegment,
  what = 'The folder path',
): string[] {
  if (raw === undefined || raw === null) return [];
  if (typeof raw !== 'string') throw badParameter(`${what} must be text`);
  const text = raw;
  if (text === '' || text === '/' || text === 'undefined' || text === 'null') return [];
  // a cheap bound before splitting: a path this long fails the check below anyway
  if (text.length > MAX_PATH_BYTES * 2)
    throw badParameter(`${what} is too long (at most ${MAX_PATH_BYTES} bytes)`);
  const segments = text
    .split('/')
    .filter((s) => s !== '')
    .map((s) => rule(s));
  checkPathLength(segments, what);
  return segments;
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
