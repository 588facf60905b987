import { describe, expect, it } from 'vitest';
import { REMOTE_PLACEHOLDER } from '../../lib/remote-content';
import type { DrawnNode } from './km';
import { holdRemoteImages, releaseRemoteImages } from './km-remote';

const BASE = 'https://drive.example.org/';

const tree: DrawnNode = {
  data: { text: 'Plan', uid: 'r', image: 'https://example.invalid/a.png', imageSize: { width: 9 } },
  children: [
    { data: { text: 'Here', uid: 'c1', image: '/api/file/admin/assets/b.png' }, children: [] },
    { data: { text: 'Plain', uid: 'c2' }, children: [] },
  ],
};

describe('mind-map topic images from other sites', () => {
  it('are held back, the drive’s own shown', () => {
    const { tree: shown, held } = holdRemoteImages(tree, BASE);
    expect(held).toBe(1);
    expect(shown.data.image).toBe(REMOTE_PLACEHOLDER);
    expect(shown.data.imageSize).toEqual({ width: 9 });
    expect(shown.children[0]!.data.image).toBe('/api/file/admin/assets/b.png');
  });

  it('come back whole, nothing of the holding left', () => {
    const { tree: shown } = holdRemoteImages(tree, BASE);
    expect(releaseRemoteImages(shown)).toEqual(tree);
    expect(releaseRemoteImages(tree)).toEqual(tree);
  });
});
