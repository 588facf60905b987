import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SettingsRepo } from '../src/modules/settings/settings.repo.ts';
import { codeFingerprint, ShareTokens } from '../src/modules/share/share-token.ts';
import { makeTestApp, type TestApp } from './harness.ts';

let t: TestApp;
let now = 1_700_000_000_000;
const clock = () => now;

beforeEach(async () => {
  t = await makeTestApp();
  now = 1_700_000_000_000;
});
afterEach(async () => {
  await t.close();
});

const claims = (over: Partial<{ shareId: string; code: string; expiresAt: number }> = {}) => ({
  shareId: 'share-1',
  code: codeFingerprint('share-1', 'ABC123'),
  expiresAt: now + 3600_000,
  ...over,
});

describe('share tokens', () => {
  it('verify what they signed, on every node and after a restart', async () => {
    const tokens = new ShareTokens(new SettingsRepo(t.database.db), clock);
    const token = await tokens.sign(claims());
    expect(await tokens.verify(token)).toEqual(claims());
    // another node (a second instance on the same database) reads the same key
    expect(await new ShareTokens(new SettingsRepo(t.database.db), clock).verify(token)).toEqual(
      claims(),
    );
  });

  it('refuse a changed payload, a changed signature and garbage', async () => {
    const tokens = new ShareTokens(new SettingsRepo(t.database.db), clock);
    const token = await tokens.sign(claims());
    const [payload, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ s: 'share-2', c: claims().code, e: claims().expiresAt }),
    ).toString('base64url');
    expect(await tokens.verify(`${forged}.${mac}`)).toBeNull();
    const flipped = `${mac.slice(0, -2)}${mac.endsWith('AA') ? 'AB' : 'AA'}`;
    expect(await tokens.verify(`${payload}.${flipped}`)).toBeNull();
    for (const junk of [undefined, null, '', '.', 'abc', `${payload}.`, 'x'.repeat(2000)])
      expect(await tokens.verify(junk)).toBeNull();
  });

  it('stop working when they expire', async () => {
    const tokens = new ShareTokens(new SettingsRepo(t.database.db), clock);
    const token = await tokens.sign(claims({ expiresAt: now + 1000 }));
    expect(await tokens.verify(token)).not.toBeNull();
    now += 1000;
    expect(await tokens.verify(token)).toBeNull();
  });

  it('tie a token to the share and its code', () => {
    const a = codeFingerprint('share-1', 'ABC123');
    expect(codeFingerprint('share-1', 'ABC123')).toBe(a);
    expect(codeFingerprint('share-1', 'ABC124')).not.toBe(a);
    expect(codeFingerprint('share-2', 'ABC123')).not.toBe(a);
    expect(codeFingerprint('share-1', null)).not.toBe(a);
  });
});
