import { timingSafeEqual } from 'node:crypto';
import { forbidden } from '../../lib/errors.ts';
import type { SecretBox } from '../../lib/secret-box.ts';

/**
 * The addresses Nimbus hands an OnlyOffice document server: the document's bytes (or a kept
 * version's) and the save callback. The document server has no session, and a session token
 * in an address would sit in its logs and in every proxy's, so each address carries instead a
 * signature of what it is for: that one file (and version), that one user, until when. An
 * HMAC under the server's secret key; nothing is stored per address.
 */

/** What an address opens: a document's bytes, or the save callback of one editing session. */
export type OfficeLinkKind = 'file' | 'track';

/** How long a document server has to fetch a document after its editor was opened. */
export const OFFICE_FILE_LINK_TTL_MS = 5 * 60_000;
/** How long an editing session may call back: a day of editing, then a reopen. */
export const OFFICE_CALLBACK_TTL_MS = 24 * 3600_000;

/** The signed part of an address's query. */
export interface OfficeLinkQuery {
  /** The user the address was made for. */
  user: string;
  /** Epoch ms. */
  expires: number;
  signature: string;
}

export interface OfficeLinkTarget {
  kind: OfficeLinkKind;
  fileId: string;
  /** A kept version of the file ('' for its current bytes). */
  version?: string;
}

const refused = forbidden;

export class OfficeLinks {
  constructor(
    private readonly secrets: Pick<SecretBox, 'mac'>,
    private readonly now: () => number = () => Date.now(),
  ) {}

  private mac(target: OfficeLinkTarget, user: string, expires: number): Buffer {
    const data = [target.kind, target.fileId, target.version ?? '', user, String(expires)];
    return this.secrets.mac('office-link', data.join('\n'));
  }

  /** The query that opens `target` for `userId` during `ttlMs` from now. */
  sign(target: OfficeLinkTarget, userId: string, ttlMs: number): OfficeLinkQuery {
    const expires = this.now() + ttlMs;
    return {
      user: userId,
      expires,
      signature: this.mac(target, userId, expires).toString('base64url'),
    };
  }

  /** The user an address was signed for; a 403 for another target, a bad signature or a late one. */
  verify(target: OfficeLinkTarget, query: Partial<OfficeLinkQuery>): string {
    const { user, expires, signature } = query;
    if (!user || !signature || typeof expires !== 'number' || !Number.isSafeInteger(expires))
      throw refused('This address is not signed');
    const given = Buffer.from(signature, 'base64url');
    const expected = this.mac(target, user, expires);
    if (given.length !== expected.length || !timingSafeEqual(given, expected))
      throw refused('This address is not signed for this file');
    if (expires < this.now()) throw refused('This address has expired');
    return user;
  }
}
