import { describe, expect, it } from 'vitest';
import { DEFAULT_IFRAME_RULES, iframeAddress, parseIframeRules } from '../../lib/iframe-rules';
import {
  viewerFor,
  type DispatchContext,
  type PreviewItem,
  type Viewer,
} from '../../actions/viewers';

const file = (name: string, fields: Partial<PreviewItem> = {}): PreviewItem => ({
  id: name,
  name,
  path: '/',
  isFolder: false,
  size: 10,
  contentType: '',
  suffix: name.includes('.') ? name.slice(name.lastIndexOf('.') + 1) : '',
  type: 'other',
  updateDate: '',
  ...fields,
});

const viewer = (id: string, stage: Viewer['stage'], suffix: string): Viewer => ({
  id,
  stage,
  accepts: (item) => item.suffix === suffix,
  view: () => null,
});

const context = (iframe = DEFAULT_IFRAME_RULES): DispatchContext => ({
  iframe,
  source: {
    kind: 'owner',
    bytesUrl: () => '',
    downloadUrl: () => null,
    api: () => '',
    headers: () => ({}),
  },
  can: () => true,
});

describe('the open dispatch', () => {
  it('follows the stages of API-NOTES §3, not the order of registration', () => {
    const viewers = [
      viewer('text', 'text', 'pdf'),
      viewer('document', 'document', 'pdf'),
      viewer('iframe', 'iframe', 'pdf'),
    ];
    expect(viewerFor(viewers, file('a.pdf'), context())?.id).toBe('iframe');
    expect(viewerFor(viewers.slice(0, 2), file('a.pdf'), context())?.id).toBe('document');
  });

  it('opens no viewer for a folder or a file no viewer takes', () => {
    const viewers = [viewer('text', 'text', 'txt')];
    expect(viewerFor(viewers, file('a.txt', { isFolder: true }), context())).toBeNull();
    expect(viewerFor(viewers, file('a.bin'), context())).toBeNull();
  });
});

describe('the Preview Config', () => {
  it('reads comma-separated suffixes and takes the first viewer of each', () => {
    const rules = parseIframeRules(
      JSON.stringify({ 'PDF, .ofd': { first: '/one?u=$e_url', second: '/two' }, bad: 3 }),
    );
    expect(rules).toEqual([{ suffixes: ['pdf', 'ofd'], name: 'first', template: '/one?u=$e_url' }]);
  });

  it('reads JSON5 and never frames a script address', () => {
    const rules = parseIframeRules(`{
      // comments and trailing commas
      txt: { bad: 'javascript:alert(1)', good: 'https://viewer.test/?u=$e_url', },
      md: { other: '//elsewhere.test/x' },
    }`);
    expect(rules).toEqual([
      { suffixes: ['txt'], name: 'good', template: 'https://viewer.test/?u=$e_url' },
    ]);
  });

  it('falls back to the built-in viewers when the config is empty or unreadable', () => {
    expect(parseIframeRules('')).toBe(DEFAULT_IFRAME_RULES);
    expect(parseIframeRules('{not json')).toBe(DEFAULT_IFRAME_RULES);
  });

  it('puts the encoded absolute address of the bytes in place of $e_url', () => {
    const address = iframeAddress(
      DEFAULT_IFRAME_RULES[0]!,
      '/api/pre-file/1/a b.pdf?x=1',
      'http://host',
    );
    expect(address).toBe(
      `/pdf.js/web/viewer.html?file=${encodeURIComponent('http://host/api/pre-file/1/a%20b.pdf?x=1')}`,
    );
  });
});
