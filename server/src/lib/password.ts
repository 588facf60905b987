import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';

/**
 * scrypt's work, as log2 of N (r=8, p=1): 15 costs about 32 MiB and tens of milliseconds per
 * hash. Every stored hash names its own parameters, so hashes of another cost still verify.
 */
export const PASSWORD_COST = 15;
const KEY_LENGTH = 32;
const paramsOf = (cost: number): ScryptOptions => ({
  N: 2 ** cost,
  r: 8,
  p: 1,
  maxmem: 64 * 1024 * 1024,
});

function derive(password: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, params, (err, key) =>
      err ? reject(err) : resolve(key),
    );
  });
}

/** Stored as `scrypt$N$r$p$salt$hash` (base64url), so parameters can grow later. */
export async function hashPassword(password: string, cost = PASSWORD_COST): Promise<string> {
  const params = paramsOf(cost);
  const salt = randomBytes(16);
  const key = await derive(password, salt, params);
  return [
    'scrypt',
    params.N,
    params.r,
    params.p,
    salt.toString('base64url'),
    key.toString('base64url'),
  ].join('$');
}

/**
 * A hash no password matches, made with the work of `cost`: verified when there is no local
 * hash to check (an unknown name, a name the directory checks), so every sign-in does the same
 * scrypt work as a local one and timing does not tell which path it took.
 */
export function placeholderHash(cost = PASSWORD_COST): string {
  const { N, r, p } = paramsOf(cost);
  return `scrypt$${N}$${r}$${p}$${'A'.repeat(22)}$${'A'.repeat(43)}`;
}

/**
 * Whether a stored hash was made with less work than `cost` asks (an older setting, or a
 * test's lighter one): the next right password is hashed again at the current cost.
 */
export function weakerThan(stored: string, cost = PASSWORD_COST): boolean {
  const [scheme, n, r, p] = stored.split('$');
  if (scheme !== 'scrypt') return false;
  const wanted = paramsOf(cost);
  return Number(n) < wanted.N! || Number(r) < wanted.r! || Number(p) < wanted.p!;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, saltText, hashText] = stored.split('$');
  if (scheme !== 'scrypt' || !saltText || !hashText) return false;
  const expected = Buffer.from(hashText, 'base64url');
  const params: ScryptOptions = {
    N: Number(n),
    r: Number(r),
    p: Number(p),
    maxmem: 64 * 1024 * 1024,
  };
  const key = await derive(password, Buffer.from(saltText, 'base64url'), params);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

/** A password a person can type: 12 characters without look-alikes. */
export function generatePassword(length = 12): string {
  const alphabet = 'abcdefghjkmnpqrstuvwxyzABCDEFGHJKMNPQRSTUVWXYZ23456789';
  const bytes = randomBytes(length);
  let out = '';
  for (const b of bytes) out += alphabet[b % alphabet.length];
  return out;
}
