import { describe, expect, it } from 'vitest';
import { VIEWERS } from '../../app/viewer-registry';
import { DEFAULT_IFRAME_RULES } from '../../lib/iframe-rules';
import { viewerFor, type DispatchContext, type PreviewItem } from '../../actions/viewers';

const file = (name: string): PreviewItem => ({
  id: name,
  name,
  path: '/',
  isFolder: false,
  size: 10,
  contentType: 'application/octet-stream',
  suffix: name.slice(name.lastIndexOf('.') + 1),
  type: 'image',
  updateDate: '',
});

const context: DispatchContext = {
  iframe: DEFAULT_IFRAME_RULES,
  source: {
    kind: 'owner',
    bytesUrl: () => '',
    downloadUrl: () => null,
    api: () => '',
    headers: () => ({}),
  },
  can: () => true,
};

describe('opening a picture', () => {
  it('opens camera RAW photos and Photoshop documents in the gallery, as any photo', () => {
    for (const name of ['a.jpg', 'b.HEIC', 'c.psd', 'd.DNG', 'e.cr2', 'f.nef', 'g.arw', 'h.raf'])
      expect(viewerFor(VIEWERS, file(name), context)?.id, name).toBe('image');
  });
});
