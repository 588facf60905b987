import type { FileRow } from '../files/files.service.ts';
import { hrefOf, isWithin } from './webdav-headers.ts';
import type { LockRow } from './webdav-locks.ts';
import type { PropertyRow } from './webdav.repo.ts';
import type { DavItem } from './webdav-item.ts';
import { DAV_NS, emptyElement, escapeXml, propKey } from './webdav-xml.ts';

/** The entity tag the API sends for a file (file-serve.ts): its hash, or its size and date. */
export function etagOf(row: Pick<FileRow, 'hash' | 'size'>, mtimeMs: number): string {
  return `"${row.hash ? row.hash.slice(0, 32) : `${row.size.toString(16)}-${Math.floor(mtimeMs).toString(16)}`}"`;
}

/** The live properties a server computes (RFC 4918 §15), by key. */
export const LIVE_PROPS = [
  'creationdate',
  'displayname',
  'getcontentlength',
  'getcontenttype',
  'getetag',
  'getlastmodified',
  'resourcetype',
  'supportedlock',
  'lockdiscovery',
].map((local) => propKey(DAV_NS, local));

const SUPPORTED_LOCK =
  '<D:supportedlock>' +
  ['exclusive', 'shared']
    .map(
      (scope) =>
        `<D:lockentry><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockentry>`,
    )
    .join('') +
  '</D:supportedlock>';

/** One lock as `activelock` (lockdiscovery and the answer to LOCK). */
export function activeLockXml(lock: LockRow, now = Date.now()): string {
  const seconds = Math.max(0, Math.ceil((lock.expiresAt - now) / 1000));
  return (
    '<D:activelock>' +
    '<D:locktype><D:write/></D:locktype>' +
    `<D:lockscope><D:${lock.exclusive ? 'exclusive' : 'shared'}/></D:lockscope>` +
    `<D:depth>${lock.deep ? 'infinity' : '0'}</D:depth>` +
    (lock.owner !== null ? `<D:owner>${lock.owner}</D:owner>` : '') +
    `<D:timeout>Second-${seconds}</D:timeout>` +
    `<D:locktoken><D:href>${escapeXml(lock.token)}</D:href></D:locktoken>` +
    `<D:lockroot><D:href>${escapeXml(hrefOf(lock.path, false))}</D:href></D:lockroot>` +
    '</D:activelock>'
  );
}

/** The locks among `locks` that cover the item at `path`. */
export function locksOn(path: string, locks: LockRow[]): LockRow[] {
  return locks.filter((l) => l.path === path || (l.deep === 1 && isWithin(path, l.path)));
}

/** An entry of a listing: where it is and what it is. */
export interface Entry {
  path: string;
  row: FileRow | null;
}

export const entryOf = (item: DavItem): Entry => ({
  path: item.path,
  row: item.kind === 'row' ? item.row : null,
});

/** A date format remembered for the last time formatted: the entries of a folder share many. */
function memo(format: (ms: number) => string): (ms: number) => string {
  let lastMs = Number.NaN;
  let last = '';
  return (ms) => {
    if (ms !== lastMs) {
      lastMs = ms;
      last = format(ms);
    }
    return last;
  };
}
const isoDate = memo((ms) => new Date(ms).toISOString());
const httpDate = memo((ms) => new Date(ms).toUTCString());

/** One live property of an entry as XML, or undefined when the entry has not got it. */
function liveProp(entry: Entry, local: string, locks: LockRow[]): string | undefined {
  const { row } = entry;
  const isFile = row !== null && row.isFolder !== 1;
  switch (local) {
    case 'creationdate':
      return `<D:creationdate>${isoDate(row ? row.uploadDate : 0)}</D:creationdate>`;
    case 'displayname':
      return row ? `<D:displayname>${escapeXml(row.name)}</D:displayname>` : undefined;
    case 'getlastmodified':
      return `<D:getlastmodified>${httpDate(row ? row.updateDate : 0)}</D:getlastmodified>`;
    case 'resourcetype':
      return isFile ? '<D:resourcetype/>' : '<D:resourcetype><D:collection/></D:resourcetype>';
    case 'getcontentlength':
      return isFile ? `<D:getcontentlength>${row.size}</D:getcontentlength>` : undefined;
    case 'getcontenttype':
      return isFile
        ? `<D:getcontenttype>${escapeXml(row.contentType)}</D:getcontenttype>`
        : undefined;
    case 'getetag':
      return isFile
        ? `<D:getetag>${escapeXml(etagOf(row, row.updateDate))}</D:getetag>`
        : undefined;
    case 'supportedlock':
      return SUPPORTED_LOCK;
    case 'lockdiscovery': {
      const on = locks.length ? locksOn(entry.path, locks) : [];
      return on.length
        ? `<D:lockdiscovery>${on.map((l) => activeLockXml(l)).join('')}</D:lockdiscovery>`
        : '<D:lockdiscovery/>';
    }
    default:
      return undefined;
  }
}

const LIVE_LOCALS = LIVE_PROPS.map((key) => key.slice(DAV_NS.length + 2));
const DAV_PREFIX = `{${DAV_NS}}`;

/** The live properties an entry has, by key. */
export function liveProps(entry: Entry, locks: LockRow[]): Map<string, string> {
  const props = new Map<string, string>();
  for (const local of LIVE_LOCALS) {
    const xml = liveProp(entry, local, locks);
    if (xml !== undefined) props.set(`${DAV_PREFIX}${local}`, xml);
  }
  return props;
}

/** What a PROPFIND asks for. */
export type PropRequest =
  { kind: 'all'; include: string[] } | { kind: 'names' } | { kind: 'some'; keys: string[] };

const STATUS_OK = 'HTTP/1.1 200 OK';
const STATUS_MISSING = 'HTTP/1.1 404 Not Found';

const propstat = (props: string, status: string) =>
  `<D:propstat><D:prop>${props}</D:prop><D:status>${status}</D:status></D:propstat>`;

/** One `response` of a PROPFIND answer. */
export function responseXml(
  entry: Entry,
  request: PropRequest,
  locks: LockRow[],
  dead: PropertyRow[],
): string {
  const isFolder = !entry.row || entry.row.isFolder === 1;
  let body = `<D:response><D:href>${escapeXml(hrefOf(entry.path, isFolder))}</D:href>`;
  if (request.kind === 'names') {
    const live = liveProps(entry, locks);
    const names = [...live.keys(), ...dead.map((d) => d.name)].map(emptyElement).join('');
    body += propstat(names, STATUS_OK);
  } else if (request.kind === 'all') {
    let found = '';
    for (const local of LIVE_LOCALS) found += liveProp(entry, local, locks) ?? '';
    for (const d of dead) found += d.value;
    body += propstat(found, STATUS_OK);
    const missing = request.include.filter(
      (key) =>
        !(key.startsWith(DAV_PREFIX) && liveProp(entry, key.slice(DAV_PREFIX.length), locks)) &&
        !dead.some((d) => d.name === key),
    );
    if (missing.length) body += propstat(missing.map(emptyElement).join(''), STATUS_MISSING);
  } else {
    let found = '';
    let missing = '';
    for (const key of request.keys) {
      const value =
        (key.startsWith(DAV_PREFIX)
          ? liveProp(entry, key.slice(DAV_PREFIX.length), locks)
          : undefined) ?? dead.find((d) => d.name === key)?.value;
      if (value !== undefined) found += value;
      else missing += emptyElement(key);
    }
    if (found) body += propstat(found, STATUS_OK);
    if (missing) body += propstat(missing, STATUS_MISSING);
  }
  return `${body}</D:response>`;
}

export const MULTISTATUS_OPEN = '<D:multistatus xmlns:D="DAV:">';
export const MULTISTATUS_CLOSE = '</D:multistatus>';
