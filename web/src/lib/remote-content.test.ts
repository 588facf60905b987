import { describe, expect, it } from 'vitest';
import { cssIsRemote, isRemoteAddress, srcsetIsRemote } from './remote-content';

const BASE = 'https://drive.example.org/files/notes/';

describe('isRemoteAddress', () => {
  it('counts another origin as remote', () => {
    expect(isRemoteAddress('https://example.invalid/x.png', BASE)).toBe(true);
    expect(isRemoteAddress('//example.invalid/x.png', BASE)).toBe(true);
    expect(isRemoteAddress('http://drive.example.org/x.png', BASE)).toBe(true);
    expect(isRemoteAddress('https://drive.example.org:8443/x.png', BASE)).toBe(true);
    expect(isRemoteAddress(' HTTPS://example.invalid/x.png ', BASE)).toBe(true);
  });

  it('lets the drive’s own addresses and inline data through', () => {
    expect(isRemoteAddress('assets/x.png', BASE)).toBe(false);
    expect(isRemoteAddress('/api/file/admin/x.png', BASE)).toBe(false);
    expect(isRemoteAddress('https://drive.example.org/x.png', BASE)).toBe(false);
    expect(isRemoteAddress('data:image/png;base64,AAAA', BASE)).toBe(false);
    expect(isRemoteAddress('blob:https://drive.example.org/1234', BASE)).toBe(false);
    expect(isRemoteAddress('', BASE)).toBe(false);
  });
});

describe('srcsetIsRemote', () => {
  it('finds a remote candidate among local ones', () => {
    expect(srcsetIsRemote('a.png 1x, https://example.invalid/b.png 2x', BASE)).toBe(true);
    expect(srcsetIsRemote('a.png 1x,//example.invalid/b.png 2x', BASE)).toBe(true);
    expect(srcsetIsRemote('a.png 100w, b.png 200w', BASE)).toBe(false);
    expect(srcsetIsRemote('data:image/png;base64,AA,BB 1x', BASE)).toBe(false);
  });
});

describe('cssIsRemote', () => {
  it('finds remote url() and @import, and distrusts escapes', () => {
    expect(cssIsRemote('background: url(https://example.invalid/x.png)', BASE)).toBe(true);
    expect(cssIsRemote("background:url( '//example.invalid/x.png' )", BASE)).toBe(true);
    expect(cssIsRemote('@import "https://example.invalid/a.css";', BASE)).toBe(true);
    expect(cssIsRemote('background: u\\72l(https://example.invalid/x.png)', BASE)).toBe(true);
    expect(cssIsRemote('color: red; background: url(assets/x.png)', BASE)).toBe(false);
  });
});
