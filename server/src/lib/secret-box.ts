import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const KEY_FILE = 'secret.key';

/**
 * Secrets kept at rest (two-factor secrets) are sealed with AES-256-GCM under a key that is
 * not in the database: `NIMBUS_SECRET_KEY` when set,
 * otherwise a key file made once in the data folder, readable by its owner only. A copy of the
 * database alone opens nothing.
 */
export class SecretBox {
  private constructor(private readonly key: Buffer) {}

  static open(dataDir: string, configured: string | undefined): SecretBox {
    if (configured) return new SecretBox(keyFrom(configured));
    const file = path.join(dataDir, KEY_FILE);
    try {
      return new SecretBox(keyFrom(fs.readFileSync(file, 'utf8').trim()));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    fs.mkdirSync(dataDir, { recursive: true });
    const key = randomBytes(32);
    try {
      // wx: two processes starting at once keep the first key written
      fs.writeFileSync(file, key.toString('base64'), { mode: 0o600, flag: 'wx' });
      return new SecretBox(key);
    } catch {
      return new SecretBox(keyFrom(fs.readFileSync(file, 'utf8').trim()));
    }
  }

  /**
   * An HMAC-SHA256 of `data` under a key of its own for `purpose`, derived from the secret key:
   * what signs short-lived addresses, so a copy of the database forges none.
   */
  mac(purpose: string, data: string): Buffer {
    const key = createHmac('sha256', this.key).update(`nimbus-mac:${purpose}`).digest();
    return createHmac('sha256', key).update(data).digest();
  }

  /** `v1.<iv>.<tag>.<ciphertext>`, base64url. */
  seal(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const sealed = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), sealed].map((b) => b.toString('base64url'));
    return `v1.${parts.join('.')}`;
  }

  /** The plain text, or an error when the text was not sealed under this key. */
  unseal(text: string): string {
    const [version, iv, tag, sealed] = text.split('.');
    if (version !== 'v1' || !iv || !tag || sealed === undefined)
      throw new Error('not a sealed secret');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([
      decipher.update(Buffer.from(sealed, 'base64url')),
      decipher.final(),
    ]).toString('utf8');
  }
}

function keyFrom(text: string): Buffer {
  const key = Buffer.from(text, /^[0-9a-f]{64}$/i.test(text) ? 'hex' : 'base64');
  if (key.length !== 32) throw new Error('the secret key must be 32 bytes, in base64 or hex');
  return key;
}
