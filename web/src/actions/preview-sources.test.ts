import { imagesApi, imagesVisitorApi } from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { ownerSource, shareSource } from './preview-sources';

const THUMBNAIL = { owner: imagesApi.thumbnail, visitor: imagesVisitorApi.thumbnail };

describe('a source of files addresses a route by its definitions', () => {
  it("gives the owner the owner's route, signed in by the cookie alone", () => {
    expect(ownerSource().api(THUMBNAIL, { id: 'f 1', v: '7' })).toBe(
      '/api/view/thumbnail?id=f+1&v=7',
    );
  });

  it("gives a share's visitors the twin, the share's id in the query", () => {
    const address = shareSource('s1', true).api(THUMBNAIL, { id: 'f1' });
    expect(address.startsWith('/api/public/s/view/thumbnail?')).toBe(true);
    const query = new URLSearchParams(address.split('?')[1]);
    expect(query.get('id')).toBe('f1');
    expect(query.get('shareId')).toBe('s1');
  });
});
