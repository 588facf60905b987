import { AsyncLocalStorage } from 'node:async_hooks';
import { DavError } from './webdav-errors.ts';

/** Where WebDAV is served: the address the sidebar shows. */
export const DAV_ROOT = '/webdav';
/** The original client's form of the same: each user's drive at `/webDAV/<username>/`. */
const USER_ROOT = '/webDAV/';

/** The root an address is under, and the user it names in the original's form. */
export interface DavRoot {
  root: string;
  username?: string;
}

/** `/webdav/…` or `/webDAV/<name>/…` (the path part of an address), else undefined. */
export function davRootOf(pathname: string): DavRoot | undefined {
  if (pathname === DAV_ROOT || pathname.startsWith(`${DAV_ROOT}/`)) return { root: DAV_ROOT };
  if (!pathname.startsWith(USER_ROOT)) return undefined;
  const segment = pathname.slice(USER_ROOT.length).split('/')[0]!;
  if (segment === '') return undefined;
  let username: string;
  try {
    username = decodeURIComponent(segment).normalize('NFC');
  } catch {
    return undefined;
  }
  return { root: `${USER_ROOT}${segment}`, username };
}

/**
 * The root of the request being answered and whose drive it is: its answer's addresses start
 * where the client asked (a client connected at `/webDAV/ann/` is told `/webDAV/ann/a.txt`).
 */
const answering = new AsyncLocalStorage<{ root: string; username: string }>();

/** Runs `work` answering at `root` for `username`. */
export function answerAt<T>(root: string, username: string, work: () => Promise<T>): Promise<T> {
  return answering.run({ root, username }, work);
}

/** The root the answer's addresses start with. */
export function answerRoot(): string {
  return answering.getStore()?.root ?? DAV_ROOT;
}

/** One condition of an If header list: a lock token or an entity tag, maybe negated. */
export interface IfCondition {
  not: boolean;
  token?: string;
  etag?: string;
}

/** A list of an If header (RFC 4918 §10.4): all its conditions hold; `resource` when tagged. */
export interface IfList {
  resource?: string;
  conditions: IfCondition[];
}

const MAX_IF_LENGTH = 16 * 1024;

/** The If header's lists; a header that does not parse is a 400. */
export function parseIf(header: string | undefined): IfList[] {
  if (!header) return [];
  if (header.length > MAX_IF_LENGTH) throw new DavError(400, 'The If header is too long');
  const lists: IfList[] = [];
  let resource: string | undefined;
  let i = 0;
  const fail = () => new DavError(400, 'The If header cannot be read');
  const skipSpace = () => {
    while (i < header.length && /\s/.test(header[i]!)) i++;
  };
  const until = (end: string) => {
    const at = header.indexOf(end, i);
    if (at < 0) throw fail();
    const text = header.slice(i, at);
    i = at + 1;
    return text;
  };
  for (;;) {
    skipSpace();
    if (i >= header.length) break;
    const c = header[i];
    if (c === '<') {
      i++;
      resource = until('>');
      continue;
    }
    if (c !== '(') throw fail();
    i++;
    const conditions: IfCondition[] = [];
    for (;;) {
      skipSpace();
      if (header[i] === ')') {
        i++;
        break;
      }
      let not = false;
      if (header.slice(i, i + 3).toLowerCase() === 'not') {
        not = true;
        i += 3;
        skipSpace();
      }
      if (header[i] === '<') {
        i++;
        conditions.push({ not, token: until('>') });
      } else if (header[i] === '[') {
        i++;
        conditions.push({ not, etag: until(']') });
      } else throw fail();
    }
    if (conditions.length === 0) throw fail();
    lists.push({ resource, conditions });
  }
  return lists;
}

/** Depth: 0, 1 or infinity; `fallback` when absent. */
export function parseDepth(
  header: string | undefined,
  fallback: '0' | '1' | 'infinity',
): '0' | '1' | 'infinity' {
  if (header === undefined) return fallback;
  const value = header.trim().toLowerCase();
  if (value === '0' || value === '1' || value === 'infinity') return value;
  throw new DavError(400, 'Depth must be 0, 1 or infinity');
}

/** A lock lasts at most a day; clients refresh the ones they keep. */
export const MAX_LOCK_SECONDS = 86_400;
export const DEFAULT_LOCK_SECONDS = 3600;

/** The Timeout header's first choice we can keep: `Second-n` or `Infinite`, capped. */
export function parseTimeout(header: string | undefined): number {
  if (!header) return DEFAULT_LOCK_SECONDS;
  for (const part of header.split(',')) {
    const value = part.trim();
    if (/^infinite$/i.test(value)) return MAX_LOCK_SECONDS;
    const m = /^second-(\d{1,12})$/i.exec(value);
    if (m) return Math.max(1, Math.min(Number(m[1]), MAX_LOCK_SECONDS));
  }
  return DEFAULT_LOCK_SECONDS;
}

/**
 * The path of the user's tree an address names: `/webdav/a/b%20c/` (or `/webDAV/ann/a/b%20c/`)
 * is `/a/b c`.
 */
export function treePathOf(url: string): string {
  let pathname = url;
  const query = pathname.indexOf('?');
  if (query >= 0) pathname = pathname.slice(0, query);
  if (/^https?:\/\//i.test(pathname)) {
    try {
      pathname = new URL(pathname).pathname;
    } catch {
      throw new DavError(400, 'The address cannot be read');
    }
  }
  const where = davRootOf(pathname);
  const user = answering.getStore()?.username;
  // another user's drive is another server's, as far as this request goes
  if (!where || (where.username !== undefined && user !== undefined && where.username !== user))
    throw new DavError(502, 'The address is not on this WebDAV server');
  const segments: string[] = [];
  for (const raw of pathname.slice(where.root.length).split('/')) {
    if (raw === '') continue;
    let segment: string;
    try {
      segment = decodeURIComponent(raw).normalize('NFC');
    } catch {
      throw new DavError(400, 'The address cannot be read');
    }
    if (segment === '.') continue;
    if (segment === '..' || segment.includes('/') || segment.includes('\\'))
      throw new DavError(400, 'The address cannot be read');
    segments.push(segment);
  }
  return `/${segments.join('/')}`;
}

/** An item's address: each segment encoded, a folder's with its trailing slash. */
export function hrefOf(path: string, isFolder: boolean): string {
  const encoded = path
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  const root = answerRoot();
  if (path === '/') return `${root}/`;
  return `${root}${encoded}${isFolder ? '/' : ''}`;
}

/** `/a/b` → `/a` and `b`; the root has no parent. */
export function splitPath(path: string): { parent: string; name: string } {
  const at = path.lastIndexOf('/');
  return { parent: at <= 0 ? '/' : path.slice(0, at), name: path.slice(at + 1) };
}

/** The folders above a path, the root first: `/a/b/c` → `/`, `/a`, `/a/b`. */
export function ancestorsOf(path: string): string[] {
  if (path === '/') return [];
  const out = ['/'];
  const segments = path.split('/').filter(Boolean);
  for (let i = 1; i < segments.length; i++) out.push(`/${segments.slice(0, i).join('/')}`);
  return out;
}

/** Whether `path` is `folder` itself or inside it. */
export function isWithin(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}
