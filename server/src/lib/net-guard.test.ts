import { describe, expect, it } from 'vitest';
import { isPublicAddress, parsePublicUrl } from './net-guard.ts';

// The address check decides alone, without sending a packet anywhere.

describe('isPublicAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.1',
    '10.255.255.255',
    '172.16.0.1',
    '172.31.255.254',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fc00::1',
    'fd12:3456::1',
    'fe80::1',
    'fe80::1%eth0',
    'febf::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:a9fe:a9fe',
    '::ffff:192.168.0.1',
    '64:ff9b::a00:1',
    '2002:c0a8:101::1',
    '[::1]',
    'localhost',
    'not an address',
  ])('refuses %s', (address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(['1.1.1.1', '8.8.8.8', '172.15.255.255', '172.32.0.1', '192.169.0.1', '2606:4700::1111'])(
    'lets %s through',
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );
});

describe('parsePublicUrl', () => {
  it('takes http and https only', () => {
    expect(parsePublicUrl('https://example.org/a.png').hostname).toBe('example.org');
    for (const bad of ['file:///etc/passwd', 'ftp://example.org/a', 'gopher://x', 'nonsense'])
      expect(() => parsePublicUrl(bad)).toThrow();
    expect(() => parsePublicUrl(`https://example.org/${'a'.repeat(5000)}`)).toThrow(/too long/);
  });
});
