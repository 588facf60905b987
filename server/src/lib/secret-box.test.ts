import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { SecretBox } from './secret-box.ts';

const dirs: string[] = [];
const tempDir = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nimbus-box-'));
  dirs.push(dir);
  return dir;
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('the secret box', () => {
  it('seals and opens; the sealed text shows nothing of the secret and differs each time', () => {
    const box = SecretBox.open(tempDir(), randomBytes(32).toString('base64'));
    const a = box.seal('JBSWY3DPEHPK3PXP');
    expect(a).not.toContain('JBSWY3DPEHPK3PXP');
    expect(box.seal('JBSWY3DPEHPK3PXP')).not.toBe(a);
    expect(box.unseal(a)).toBe('JBSWY3DPEHPK3PXP');
  });

  it('makes its key file once, readable by its owner only, and keeps using it', () => {
    const dir = tempDir();
    const sealed = SecretBox.open(dir, undefined).seal('kept');
    const mode = fs.statSync(path.join(dir, 'secret.key')).mode & 0o777;
    expect(mode).toBe(0o600);
    expect(SecretBox.open(dir, undefined).unseal(sealed)).toBe('kept');
  });

  it('refuses text sealed under another key, or tampered with', () => {
    const one = SecretBox.open(tempDir(), randomBytes(32).toString('hex'));
    const other = SecretBox.open(tempDir(), randomBytes(32).toString('hex'));
    const sealed = one.seal('secret');
    expect(() => other.unseal(sealed)).toThrow();
    expect(() => one.unseal(sealed.slice(0, -2) + 'AA')).toThrow();
    expect(() => one.unseal('plain text')).toThrow(/not a sealed secret/);
    expect(() => SecretBox.open(tempDir(), 'too short')).toThrow(/32 bytes/);
  });
});
