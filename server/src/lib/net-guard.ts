import { lookup } from 'node:dns/promises';
import http from 'node:http';
import https from 'node:https';
import { BlockList, isIP, type LookupFunction } from 'node:net';
import { ErrorCode } from '@nimbus/contract';
import { AppError } from './errors.ts';

// Fetching a URL a user typed, on the server (a markdown image "from a URL"), without letting
// the user reach what only the server can: its loopback, the private networks around it, the
// link-local range (cloud metadata lives there). Every address a name resolves to is checked,
// the connection is made to the address that was checked (no second lookup to race), and each
// redirect is checked again as a new request.

// two lists: one list would match IPv4 addresses against the IPv4-mapped IPv6 ranges
const notPublic = new BlockList();
const notPublic6 = new BlockList();
for (const [network, bits] of [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8], // private
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8], // loopback
  ['169.254.0.0', 16], // link-local
  ['172.16.0.0', 12], // private
  ['192.0.0.0', 24], // protocol assignments
  ['192.0.2.0', 24], // documentation
  ['192.168.0.0', 16], // private
  ['198.18.0.0', 15], // benchmarking
  ['198.51.100.0', 24], // documentation
  ['203.0.113.0', 24], // documentation
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved, broadcast
] as const)
  notPublic.addSubnet(network, bits, 'ipv4');
for (const [network, bits] of [
  ['::', 96], // unspecified, loopback, IPv4-compatible
  ['::ffff:0:0', 96], // IPv4-mapped: decided by the IPv4 rules below
  ['64:ff9b::', 96], // NAT64: an IPv4 address in disguise
  ['100::', 64], // discard
  ['2001:db8::', 32], // documentation
  ['2002::', 16], // 6to4: an IPv4 address in disguise
  ['fc00::', 7], // unique local
  ['fe80::', 10], // link-local
  ['fec0::', 10], // site-local (deprecated)
  ['ff00::', 8], // multicast
] as const)
  notPublic6.addSubnet(network, bits, 'ipv6');

/** An IPv4 address written as IPv6 (`::ffff:7f00:1`, `::ffff:127.0.0.1`), as IPv4; or null. */
function mappedIPv4(address: string): string | null {
  const dotted = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (dotted) return dotted[1]!;
  const hex = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/i.exec(address);
  if (!hex) return null;
  const high = parseInt(hex[1]!, 16);
  const low = parseInt(hex[2]!, 16);
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

/** Whether an address is on the public internet: not loopback, private, link-local or reserved. */
export function isPublicAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '').replace(/%.*$/, '');
  const family = isIP(bare);
  if (family === 4) return !notPublic.check(bare, 'ipv4');
  if (family !== 6) return false;
  const v4 = mappedIPv4(bare);
  if (v4) return isPublicAddress(v4);
  return !notPublic6.check(bare, 'ipv6');
}

/** Which addresses a fetch may connect to (tests narrow it to one loopback address). */
export type AddressPolicy = (address: string) => boolean;

export interface GuardedFetchOptions {
  allow?: AddressPolicy;
  maxBytes: number;
  timeoutMs: number;
  maxRedirects?: number;
  /** Content types accepted (checked before the body is read). */
  accept: (contentType: string) => boolean;
}

export interface Fetched {
  url: URL;
  contentType: string;
  body: Buffer;
}

const refused = (message: string) => new AppError(ErrorCode.BAD_PARAMETER, message);

/** A URL a user gave, parsed: http or https only, no more than 4 KB. */
export function parsePublicUrl(raw: string): URL {
  if (raw.length > 4096) throw refused('The address is too long');
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw refused('This is not a web address');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw refused('Only http and https addresses can be fetched');
  return url;
}

/** The address to connect to for `host`, every one it resolves to checked by `allow`. */
async function resolveChecked(host: string, allow: AddressPolicy): Promise<string> {
  const bare = host.replace(/^\[|\]$/g, '');
  const addresses = isIP(bare)
    ? [bare]
    : (await lookup(bare, { all: true, verbatim: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw refused(`"${host}" could not be found`);
  if (!addresses.every(allow))
    throw refused('This address is not on the public internet and cannot be fetched');
  return addresses[0]!;
}

/**
 * GET `raw` from the public internet: each hop's host checked and connected to at the checked
 * address, at most `maxRedirects` redirects, an accepted content type, at most `maxBytes`.
 */
export async function fetchPublic(raw: string, options: GuardedFetchOptions): Promise<Fetched> {
  const allow = options.allow ?? isPublicAddress;
  let url = parsePublicUrl(raw);
  const deadline = Date.now() + options.timeoutMs;
  for (let hop = 0; hop <= (options.maxRedirects ?? 3); hop++) {
    const address = await resolveChecked(url.hostname, allow);
    const answer = await getOnce(url, address, options, Math.max(1, deadline - Date.now()));
    if ('location' in answer) {
      url = parsePublicUrl(new URL(answer.location, url).href);
      continue;
    }
    return answer;
  }
  throw refused('The address redirects too many times');
}

function getOnce(
  url: URL,
  address: string,
  options: GuardedFetchOptions,
  timeoutMs: number,
): Promise<Fetched | { location: string }> {
  // the connection goes to the address checked, whatever the name would resolve to now
  const pinned: LookupFunction = (_host, lookupOptions, done) => {
    const family = isIP(address);
    if ((lookupOptions as { all?: boolean }).all)
      (done as (e: null, a: Array<{ address: string; family: number }>) => void)(null, [
        { address, family },
      ]);
    else done(null, address, family);
  };
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const request = client.get(
      url,
      {
        lookup: pinned,
        timeout: timeoutMs,
        headers: { accept: 'image/*', 'user-agent': 'Nimbus' },
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const location = response.headers.location;
        if (status >= 300 && status < 400 && location) {
          response.resume();
          return resolve({ location });
        }
        if (status !== 200) {
          response.resume();
          return reject(refused(`The address answered ${status}`));
        }
        const contentType = (response.headers['content-type'] ?? '').split(';')[0]!.trim();
        if (!options.accept(contentType.toLowerCase())) {
          response.destroy();
          return reject(refused('The address does not hold an image'));
        }
        const announced = Number(response.headers['content-length'] ?? 0);
        if (announced > options.maxBytes) {
          response.destroy();
          return reject(refused('The image is too large'));
        }
        const chunks: Buffer[] = [];
        let size = 0;
        response.on('data', (chunk: Buffer) => {
          size += chunk.length;
          if (size > options.maxBytes) {
            response.destroy();
            reject(refused('The image is too large'));
            return;
          }
          chunks.push(chunk);
        });
        response.on('end', () => resolve({ url, contentType, body: Buffer.concat(chunks, size) }));
        response.on('error', () => reject(refused('The download was cut off')));
      },
    );
    request.on('timeout', () => request.destroy(refused('The address took too long to answer')));
    request.on('error', (err) =>
      reject(err instanceof AppError ? err : refused('The address could not be reached')),
    );
  });
}
