import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact-url.ts';

// What the request log keeps of a URL: no token, code or password, wherever in it one sits.

const token = () => randomBytes(32).toString('base64url');
const shareToken = () =>
  `${Buffer.from(JSON.stringify({ s: 'abc', c: '', e: Date.now() })).toString('base64url')}.${token()}`;

describe('redactUrl', () => {
  it('masks a token nested in another parameter, plain or encoded once or twice', () => {
    const secret = token();
    const inner = `/api/pre-file/1/a.pdf?nimbus-token=${secret}`;
    for (const url of [
      `/pdfjs/web/viewer.html?file=${inner}`,
      `/pdfjs/web/viewer.html?file=${encodeURIComponent(inner)}`,
      `/pdfjs/web/viewer.html?file=${encodeURIComponent(encodeURIComponent(inner))}`,
      `/api/x?next=${encodeURIComponent(`/s/abc?share-token=${secret}&x=1`)}`,
      `/api/x?state=${encodeURIComponent(`a=1&mfaToken=${secret}`)}`,
      `/api/x?redirect=${encodeURIComponent(`https://h/p?token=${secret}`)}`,
    ]) {
      const logged = redactUrl(url);
      expect(logged, url).not.toContain(secret);
      expect(logged, url).toContain('***');
    }
    // what is not secret stays readable
    expect(decodeURIComponent(redactUrl(`/v?file=${encodeURIComponent(inner)}`))).toBe(
      '/v?file=/api/pre-file/1/a.pdf?nimbus-token=***',
    );
  });

  it('masks the token segment of share paths, the file path and the HLS path', () => {
    const secret = shareToken();
    expect(redactUrl(`/api/share-file/f1/${secret}/a.txt`)).toBe('/api/share-file/f1/***/a.txt');
    expect(redactUrl(`/api/public/video/hls/abc/${secret}/bob/index.m3u8`)).toBe(
      '/api/public/video/hls/abc/***/bob/index.m3u8',
    );
    // a share without a code has no token there
    expect(redactUrl('/api/public/video/hls/abc/-/bob/index.m3u8')).toBe(
      '/api/public/video/hls/abc/-/bob/index.m3u8',
    );
  });

  it('masks anything shaped like a token, under any name and in any segment', () => {
    for (const secret of [token(), `nat_${token()}`, shareToken()]) {
      for (const url of [
        `/api/x?q=${secret}`,
        `/api/x/${secret}/y`,
        `/api/x?${secret}`,
        `/api/x?file=${encodeURIComponent(`/a/${secret}/b`)}`,
      ]) {
        expect(redactUrl(url), url).not.toContain(secret);
      }
    }
  });

  it('leaves ids, hashes and names alone', () => {
    const url =
      '/api/pre-file/0a4f2b1c-1111-2222-3333-444455556666/report.pdf?o=download&hash=' +
      'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';
    expect(redactUrl(url)).toBe(url);
    expect(redactUrl('/api/x?a=1&b')).toBe('/api/x?a=1&b');
    expect(redactUrl('/api/list?path=%2Fdocs%2Fa%20b')).toBe('/api/list?path=%2Fdocs%2Fa%20b');
  });
});
