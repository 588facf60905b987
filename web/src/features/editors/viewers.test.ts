import { describe, expect, it } from 'vitest';
import { VIEWERS } from '../../app/viewer-registry';
import { useSessionStore } from '../../stores/session';
import { DEFAULT_IFRAME_RULES } from '../../lib/iframe-rules';
import {
  viewerFor,
  type DispatchContext,
  type PreviewItem,
  type PreviewSource,
} from '../../actions/viewers';
import { TEXT_EDITOR_MAX_BYTES } from './editable';

const ME = 'u-me';

const file = (name: string, fields: Partial<PreviewItem> = {}): PreviewItem => {
  const dot = name.lastIndexOf('.');
  return {
    id: name,
    name,
    path: '/',
    isFolder: false,
    size: 10,
    contentType: 'text/plain',
    suffix: dot > 0 ? name.slice(dot + 1) : '',
    type: 'text',
    updateDate: '',
    userId: ME,
    ...fields,
  };
};

const addresses = {
  bytesUrl: () => '',
  downloadUrl: () => null,
  api: () => '',
  headers: () => ({}),
};
const OWNER: PreviewSource = { kind: 'owner', ...addresses };
const VISITOR: PreviewSource = { kind: 'share', shareId: 's1', shareToken: '', ...addresses };

const context = (
  source: PreviewSource,
  granted: string[],
  iframe = DEFAULT_IFRAME_RULES,
): DispatchContext => ({
  iframe,
  source,
  can: (authority) => granted.includes(authority),
});
const WRITER = ['cloud:file:upload', 'cloud:file:download'];
const READER = ['cloud:file:download'];

const opens = (item: PreviewItem, ctx: DispatchContext) => viewerFor(VIEWERS, item, ctx)?.id;

describe('opening text and code', () => {
  useSessionStore.setState({ userId: ME });

  it('opens the owner’s text and code in the text editor when their role may write', () => {
    for (const name of ['notes.txt', 'main.py', 'app.ts', 'Dockerfile', 'build.gradle', 'a.log'])
      expect(opens(file(name), context(OWNER, WRITER)), name).toBe('text-editor');
    expect(opens(file('trip.md'), context(OWNER, WRITER))).toBe('markdown');
    expect(opens(file('plan.mind'), context(OWNER, WRITER))).toBe('mind-map');
  });

  it('shows them read-only to a role without the right to write, a visitor and a mounter', () => {
    expect(opens(file('notes.txt'), context(OWNER, READER))).toBe('code');
    expect(opens(file('trip.md'), context(OWNER, READER))).toBe('code');
    expect(opens(file('plan.mind'), context(OWNER, READER))).toBe('code');
    expect(opens(file('notes.txt'), context(VISITOR, WRITER))).toBe('code');
    expect(opens(file('notes.txt', { userId: 'u-other' }), context(OWNER, WRITER))).toBe('code');
  });

  it('leaves a suffix the Preview Config names to the viewer it names', () => {
    const rules = [
      ...DEFAULT_IFRAME_RULES,
      { suffixes: ['log'], name: 'Log viewer', template: '/viewers/log.html?src=$e_url' },
    ];
    expect(opens(file('a.log'), context(OWNER, WRITER, rules))).toBe('iframe');
    expect(opens(file('a.txt'), context(OWNER, WRITER, rules))).toBe('text-editor');
  });

  it('leaves texts too large to edit to the streaming viewer', () => {
    const big = file('huge.log', { size: TEXT_EDITOR_MAX_BYTES + 1 });
    expect(opens(big, context(OWNER, WRITER))).toBe('code');
  });
});
