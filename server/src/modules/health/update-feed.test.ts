import { describe, expect, it } from 'vitest';
import { compareVersions, isVersion, readFeed, webAddress } from './update-feed.ts';

describe('version order', () => {
  it('orders major, minor and patch as numbers, not as text', () => {
    expect(compareVersions('2.17.0', '2.16.1')).toBeGreaterThan(0);
    expect(compareVersions('2.16.1', '2.17.0')).toBeLessThan(0);
    expect(compareVersions('2.10.0', '2.9.9')).toBeGreaterThan(0);
    expect(compareVersions('10.0.0', '9.99.99')).toBeGreaterThan(0);
    expect(compareVersions('2.16.10', '2.16.9')).toBeGreaterThan(0);
    expect(compareVersions('3.0.0', '2.99.99')).toBeGreaterThan(0);
    expect(compareVersions('12345678901234567890.0.0', '9.0.0')).toBeGreaterThan(0);
  });

  it('takes equal versions as equal, with or without a "v" and build metadata', () => {
    expect(compareVersions('2.16.1', '2.16.1')).toBe(0);
    expect(compareVersions('v2.16.1', '2.16.1')).toBe(0);
    expect(compareVersions('2.16.1+build.7', '2.16.1')).toBe(0);
  });

  it('puts a pre-release before its release and after the release before it', () => {
    expect(compareVersions('2.17.0-rc.1', '2.17.0')).toBeLessThan(0);
    expect(compareVersions('2.17.0', '2.17.0-rc.1')).toBeGreaterThan(0);
    expect(compareVersions('2.17.0-rc.1', '2.16.1')).toBeGreaterThan(0);
  });

  it('orders pre-releases by their identifiers as semver does', () => {
    const ordered = [
      '1.0.0-alpha',
      '1.0.0-alpha.1',
      '1.0.0-alpha.beta',
      '1.0.0-beta',
      '1.0.0-beta.2',
      '1.0.0-beta.11',
      '1.0.0-rc.1',
      '1.0.0',
    ];
    for (let i = 0; i + 1 < ordered.length; i++) {
      expect(compareVersions(ordered[i]!, ordered[i + 1]!), ordered[i]).toBeLessThan(0);
      expect(compareVersions(ordered[i + 1]!, ordered[i]!), ordered[i]).toBeGreaterThan(0);
    }
    const shuffled = [...ordered].reverse().sort(compareVersions);
    expect(shuffled).toEqual(ordered);
  });

  it('knows a version from anything else', () => {
    for (const good of ['0.0.0', '2.17.0', 'v2.17.0', '2.17.0-rc.1', '1.0.0-x-y.7+b.1'])
      expect(isVersion(good), good).toBe(true);
    for (const bad of [
      '',
      '2.17',
      '2.17.0.1',
      '02.17.0',
      '2.17.0-01',
      'V2.17.0',
      ' 2.17.0',
      '2.17.0 ',
      '2.17.0-',
      '2.17.0-rc..1',
      'latest',
      `2.17.0-${'a'.repeat(40)}`,
      '<script>1</script>',
    ])
      expect(isVersion(bad), bad).toBe(false);
    expect(() => compareVersions('latest', '2.16.1')).toThrow();
  });
});

describe('an update feed document', () => {
  it('is read in the plain shape and in the shape of a GitHub latest release', () => {
    expect(readFeed({ version: '2.17.0', url: 'https://example.org/releases/2.17.0' })).toEqual({
      version: '2.17.0',
      url: 'https://example.org/releases/2.17.0',
    });
    expect(
      readFeed({
        tag_name: 'v2.17.0',
        html_url: 'https://github.com/example/nimbus/releases/tag/v2.17.0',
        name: 'Nimbus 2.17',
      }),
    ).toEqual({
      version: '2.17.0',
      url: 'https://github.com/example/nimbus/releases/tag/v2.17.0',
    });
  });

  it('is not taken when its version or address is missing, wrong or too long', () => {
    const problems = [
      null,
      'text',
      [{ version: '2.17.0', url: 'https://example.org/' }],
      {},
      { version: 2.17, url: 'https://example.org/' },
      { version: 'newest', url: 'https://example.org/' },
      { version: '2.17.0' },
      { version: '2.17.0', url: 'javascript:alert(1)' },
      { version: '2.17.0', url: 'data:text/html,<b>x</b>' },
      { version: '2.17.0', url: 'ftp://example.org/nimbus.tar' },
      { version: '2.17.0', url: '/releases/2.17.0' },
      { version: '2.17.0', url: `https://example.org/${'a'.repeat(2000)}` },
      { tag_name: 'v2.17.0', html_url: 'javascript:alert(1)' },
      { tag_name: 'nightly', html_url: 'https://example.org/' },
    ];
    for (const document of problems)
      expect(readFeed(document), JSON.stringify(document)).toEqual({
        problem: expect.any(String),
      });
  });

  it('takes a relative redirect address against the one it came from, http(s) only', () => {
    const base = new URL('https://example.org/feed/latest.json');
    expect(webAddress('/feed/v2.json', base)?.href).toBe('https://example.org/feed/v2.json');
    expect(webAddress('http://mirror.example.org/f.json', base)?.href).toBe(
      'http://mirror.example.org/f.json',
    );
    expect(webAddress('file:///etc/passwd', base)).toBeNull();
    expect(webAddress('javascript:alert(1)', base)).toBeNull();
  });
});
