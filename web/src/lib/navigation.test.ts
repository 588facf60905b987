import { describe, expect, it } from 'vitest';
import { guardRedirect } from './navigation';

const at = (path: string) => {
  const url = new URL(path, 'http://drive.test');
  return { pathname: url.pathname, search: url.search, hash: url.hash };
};

describe('navigation rules (spec §2)', () => {
  it('sends visitors without a token to the login page with the full path as redirect', () => {
    expect(guardRedirect(at('/trash?vmode=grid'), false, 'desktop')).toBe(
      '/login?redirect=%2Ftrash%3Fvmode%3Dgrid',
    );
    expect(guardRedirect(at('/setting/user'), false, 'desktop')).toBe(
      '/login?redirect=%2Fsetting%2Fuser',
    );
  });

  it('lets login and share paths through without a token', () => {
    for (const path of ['/login', '/login_m', '/login?redirect=/x', '/s/abc', '/s']) {
      expect(guardRedirect(at(path), false, 'desktop')).toBeNull();
    }
  });

  it('sends a signed-in user away from the login page', () => {
    expect(guardRedirect(at('/login'), true, 'desktop')).toBe('/');
    expect(guardRedirect(at('/login?redirect=%2Ftrash%3Fvmode%3Dlist'), true, 'desktop')).toBe(
      '/trash?vmode=list',
    );
    expect(guardRedirect(at('/login?redirect=https%3A%2F%2Fevil.test'), true, 'desktop')).toBe('/');
    expect(guardRedirect(at('/login?redirect=%2F%2Fevil.test'), true, 'desktop')).toBe('/');
    expect(guardRedirect(at('/login_m'), true, 'mobile')).toBe('/');
  });

  it('uses the mobile home and share pages on a mobile device, with the same query', () => {
    expect(guardRedirect(at('/?path=%2Fa&highlight=b.txt'), true, 'mobile')).toBe(
      '/_m?path=%2Fa&highlight=b.txt',
    );
    expect(guardRedirect(at('/s?code=1'), false, 'mobile')).toBe('/s_m?code=1');
    expect(guardRedirect(at('/s_m'), false, 'mobile')).toBeNull();
    expect(guardRedirect(at('/recently'), true, 'mobile')).toBeNull();
  });

  it('goes back to the plain paths on a desktop', () => {
    expect(guardRedirect(at('/_m?path=%2Fa'), true, 'desktop')).toBe('/?path=%2Fa');
    expect(guardRedirect(at('/s_m'), false, 'desktop')).toBe('/s');
    expect(guardRedirect(at('/'), true, 'desktop')).toBeNull();
  });
});
