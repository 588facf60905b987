import { describe, expect, it } from 'vitest';
import { loadConfig, testConfig } from '../config.ts';
import {
  PASSWORD_COST,
  hashPassword,
  placeholderHash,
  verifyPassword,
  weakerThan,
} from './password.ts';

const paramsOf = (hash: string) => hash.split('$').slice(0, 4).join('$');

// a hash at the production cost is tens of milliseconds alone, seconds on a busy machine
describe('password hashes', { timeout: 30_000 }, () => {
  it('are made with N = 2^15 by a running server, and with less work only in tests', () => {
    expect(PASSWORD_COST).toBe(15);
    expect(loadConfig({}).passwordCost).toBe(15);
    expect(testConfig({}).passwordCost).toBe(10);
  });

  it('name their parameters, and verify the right password only', async () => {
    const hash = await hashPassword('correct horse');
    expect(paramsOf(hash)).toBe('scrypt$32768$8$1');
    expect(await verifyPassword('correct horse', hash)).toBe(true);
    expect(await verifyPassword('correct hors', hash)).toBe(false);
  });

  it('of another cost still verify, by the parameters they name', async () => {
    const cheap = await hashPassword('correct horse', 10);
    expect(paramsOf(cheap)).toBe('scrypt$1024$8$1');
    expect(await verifyPassword('correct horse', cheap)).toBe(true);
    expect(await verifyPassword('wrong', cheap)).toBe(false);
  });

  it('have a placeholder of the same work that no password matches', async () => {
    for (const cost of [10, PASSWORD_COST]) {
      const placeholder = placeholderHash(cost);
      expect(paramsOf(placeholder)).toBe(paramsOf(await hashPassword('x', cost)));
      expect(await verifyPassword('', placeholder)).toBe(false);
      expect(await verifyPassword('AAAA', placeholder)).toBe(false);
    }
  });

  it('fold what looks the same to one form before hashing', async () => {
    const hash = await hashPassword('ｐａｓｓ', 10);
    expect(await verifyPassword('pass', hash)).toBe(true);
  });

  it('made with less work than the current cost are known as weaker', async () => {
    const cheap = await hashPassword('x', 10);
    expect(weakerThan(cheap, 10)).toBe(false);
    expect(weakerThan(cheap, 11)).toBe(true);
    expect(weakerThan(cheap)).toBe(true);
    expect(weakerThan(await hashPassword('x', 12), 11)).toBe(false);
    expect(weakerThan('scrypt$1024$4$1$salt$hash', 10)).toBe(true);
    // not a hash this code made (an account that signs in elsewhere): never replaced
    expect(weakerThan('!', 10)).toBe(false);
  });
});
