// What an update feed may say, and how versions are ordered. Pure: no network, no clock.

/** The longest version string a feed may give. */
export const FEED_VERSION_MAX = 40;
/** The longest release address a feed may give. */
export const FEED_URL_MAX = 2000;

/** A release a feed announces: its version (no leading "v") and the page that describes it. */
export interface FeedRelease {
  version: string;
  url: string;
}

// major.minor.patch without leading zeros, an optional pre-release, optional build metadata
const NUMBER = '0|[1-9]\\d*';
const IDENT = '[0-9A-Za-z-]+';
const VERSION = new RegExp(
  `^(${NUMBER})\\.(${NUMBER})\\.(${NUMBER})(?:-(${IDENT}(?:\\.${IDENT})*))?(?:\\+${IDENT}(?:\\.${IDENT})*)?$`,
);

interface ParsedVersion {
  core: [string, string, string];
  preRelease: string[];
}

function parseVersion(text: string): ParsedVersion | null {
  const m = VERSION.exec(text.startsWith('v') ? text.slice(1) : text);
  if (!m) return null;
  const preRelease = m[4] ? m[4].split('.') : [];
  // semver: a numeric pre-release identifier has no leading zeros either
  if (preRelease.some((p) => /^\d+$/.test(p) && p.length > 1 && p.startsWith('0'))) return null;
  return { core: [m[1]!, m[2]!, m[3]!], preRelease };
}

/** Whether the text is a version this server orders: `2.17.0`, `v2.17.0`, `2.17.0-rc.1`. */
export function isVersion(text: string): boolean {
  return text.length <= FEED_VERSION_MAX && parseVersion(text) !== null;
}

// whole numbers of any length without leading zeros: the longer is the larger
function compareNumbers(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

function compareIdentifiers(a: string, b: string): number {
  const aNumeric = /^\d+$/.test(a);
  const bNumeric = /^\d+$/.test(b);
  if (aNumeric && bNumeric) return compareNumbers(a, b);
  // semver: numeric identifiers sort before alphanumeric ones
  if (aNumeric !== bNumeric) return aNumeric ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * Semantic-version order: negative when `a` comes before `b`, positive after, 0 when equal.
 * A pre-release comes before its release (2.17.0-rc.1 < 2.17.0); build metadata is ignored.
 * Throws on a text that is no version (check with `isVersion` first).
 */
export function compareVersions(a: string, b: string): number {
  const x = parseVersion(a);
  const y = parseVersion(b);
  if (!x || !y) throw new Error('not a version');
  for (let i = 0; i < 3; i++) {
    const order = compareNumbers(x.core[i]!, y.core[i]!);
    if (order !== 0) return order;
  }
  // a release (no pre-release part) comes after every pre-release of it
  if (x.preRelease.length === 0 || y.preRelease.length === 0)
    return Math.sign(y.preRelease.length - x.preRelease.length);
  for (let i = 0; i < Math.min(x.preRelease.length, y.preRelease.length); i++) {
    const order = compareIdentifiers(x.preRelease[i]!, y.preRelease[i]!);
    if (order !== 0) return order;
  }
  return Math.sign(x.preRelease.length - y.preRelease.length);
}

/**
 * An http or https address of at most FEED_URL_MAX characters, as a URL; else null.
 * `base`: what a relative address (a redirect's Location) is taken from.
 */
export function webAddress(text: string, base?: URL): URL | null {
  if (text.length > FEED_URL_MAX) return null;
  let url: URL;
  try {
    url = new URL(text, base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  return url.href.length <= FEED_URL_MAX ? url : null;
}

/**
 * The release a feed document announces, or why it is not taken. Two shapes are read:
 * `{ "version": "2.17.0", "url": "https://…" }` and a GitHub latest release
 * (`{ "tag_name": "v2.17.0", "html_url": "https://…" }`).
 */
export function readFeed(document: unknown): FeedRelease | { problem: string } {
  if (typeof document !== 'object' || document === null || Array.isArray(document))
    return { problem: 'the feed is not a JSON object' };
  const fields = document as Record<string, unknown>;
  const version = 'version' in fields ? fields.version : fields.tag_name;
  const url = 'version' in fields ? fields.url : fields.html_url;
  if (typeof version !== 'string' || !isVersion(version))
    return { problem: 'the feed names no version of the form 1.2.3' };
  const address = typeof url === 'string' ? webAddress(url) : null;
  if (!address) return { problem: 'the feed names no http or https release address' };
  return { version: version.startsWith('v') ? version.slice(1) : version, url: address.href };
}
