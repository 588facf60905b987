import { describe, expect, it } from 'vitest';
import {
  base32Decode,
  base32Encode,
  codeAt,
  matchingStep,
  newTotpSecret,
  otpauthUri,
  stepAt,
} from './totp.ts';

describe('TOTP', () => {
  it('gives the codes of RFC 6238 (SHA-1 vectors, eight digits)', () => {
    const secret = Buffer.from('12345678901234567890', 'ascii');
    const vectors: Array<[number, string]> = [
      [59, '94287082'],
      [1111111109, '07081804'],
      [1111111111, '14050471'],
      [1234567890, '89005924'],
      [2000000000, '69279037'],
      [20000000000, '65353130'],
    ];
    for (const [seconds, code] of vectors)
      expect(codeAt(secret, stepAt(seconds * 1000), 8)).toBe(code);
  });

  it('round-trips base32 as authenticator apps write it', () => {
    const bytes = Buffer.from('12345678901234567890', 'ascii');
    expect(base32Encode(bytes)).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(base32Decode('gezd gnbv gy3t qojq gezd gnbv gy3t qojq')).toEqual(bytes);
    expect(() => base32Decode('not base32!')).toThrow();
    expect(newTotpSecret()).toMatch(/^[A-Z2-7]{32}$/);
  });

  it('accepts a code one step either side of now, and nothing further or malformed', () => {
    const secret = newTotpSecret();
    const now = Date.UTC(2026, 10, 23, 12, 0, 10);
    const step = stepAt(now);
    const code = (s: number) => codeAt(base32Decode(secret), s);
    expect(matchingStep(secret, code(step), now)).toBe(step);
    expect(matchingStep(secret, code(step - 1), now)).toBe(step - 1);
    expect(matchingStep(secret, code(step + 1), now)).toBe(step + 1);
    expect(matchingStep(secret, code(step - 2), now)).toBeNull();
    expect(matchingStep(secret, '12345', now)).toBeNull();
    expect(matchingStep(secret, '12345a', now)).toBeNull();
  });

  it('names the issuer and the account in the QR code address', () => {
    expect(otpauthUri('Nimbus', 'alice', 'ABC')).toBe(
      'otpauth://totp/Nimbus:alice?secret=ABC&issuer=Nimbus&algorithm=SHA1&digits=6&period=30',
    );
  });
});
