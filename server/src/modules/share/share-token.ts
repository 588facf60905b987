import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SettingsRepo } from '../settings/settings.repo.ts';

/** The setting row holding the signing key: every node and every restart uses the same one. */
const KEY_SETTING = 'share.tokenKey';

export interface ShareTokenClaims {
  /** The share the token opens. */
  shareId: string;
  /** Fingerprint of the code it was issued for: a new code or a change of privacy voids it. */
  code: string;
  /** Epoch ms. */
  expiresAt: number;
}

const b64 = (data: Buffer | string) => Buffer.from(data).toString('base64url');

/** Fingerprint of a share's effective code (empty for a public share). */
export function codeFingerprint(shareId: string, code: string | null): string {
  return createHash('sha256')
    .update(`${shareId}\n${code ?? ''}`)
    .digest('base64url')
    .slice(0, 16);
}

/**
 * Share tokens: `<claims>.<HMAC-SHA256>` in base64url, signed with a random key stored in the
 * database. Nothing per token is stored; cancelling a share, changing its code or letting it
 * expire voids every token issued for it, because the claims no longer match the share.
 */
export class ShareTokens {
  private key: Buffer | null = null;

  constructor(
    private readonly settings: SettingsRepo,
    private readonly now: () => number = Date.now,
  ) {}

  private async signingKey(): Promise<Buffer> {
    if (this.key) return this.key;
    // two nodes may race here: the first one's key stands and both use it
    const value =
      (await this.settings.value(KEY_SETTING)) ??
      (await this.settings.putOnce(
        KEY_SETTING,
        JSON.stringify(randomBytes(32).toString('base64url')),
      ));
    const key = Buffer.from(JSON.parse(value) as string, 'base64url');
    if (key.length < 32) throw new Error('the share token key in the database is damaged');
    this.key = key;
    return key;
  }

  private async mac(payload: string): Promise<Buffer> {
    return createHmac('sha256', await this.signingKey())
      .update(payload)
      .digest();
  }

  async sign(claims: ShareTokenClaims): Promise<string> {
    const payload = b64(JSON.stringify({ s: claims.shareId, c: claims.code, e: claims.expiresAt }));
    return `${payload}.${b64(await this.mac(payload))}`;
  }

  /** The claims of a genuine, unexpired token; null for anything else. */
  async verify(token: string | undefined | null): Promise<ShareTokenClaims | null> {
    if (!token || token.length > 1024) return null;
    const dot = token.indexOf('.');
    if (dot <= 0) return null;
    const payload = token.slice(0, dot);
    const given = Buffer.from(token.slice(dot + 1), 'base64url');
    const expected = await this.mac(payload);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
    try {
      const claims = JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as {
        s?: unknown;
        c?: unknown;
        e?: unknown;
      };
      if (
        typeof claims.s !== 'string' ||
        typeof claims.c !== 'string' ||
        typeof claims.e !== 'number'
      )
        return null;
      if (claims.e <= this.now()) return null;
      return { shareId: claims.s, code: claims.c, expiresAt: claims.e };
    } catch {
      return null;
    }
  }
}
