import {
  FILE_KIND_TABLE,
  GALLERY_IMAGE_SUFFIXES,
  OFFICE_SUFFIXES,
  THUMBNAIL_SUFFIXES,
} from '@nimbus/contract';
import { describe, expect, it } from 'vitest';
import { coverIsPage, hasThumbnail, isGalleryImage, thumbnailUrl } from './thumbnails';
import type { ApiAddress, EndpointTwins } from './viewers';

const file = (name: string, extra: Partial<{ size: number; hash: string | null }> = {}) => ({
  id: 'f1',
  name,
  suffix: name.split('.').pop()!,
  isFolder: false,
  size: 10,
  updateDate: '2026-01-01 00:00:00',
  ...extra,
});
/** The owner's address of a route, its query as the page would send it. */
const api = ((route: string | EndpointTwins, query: Record<string, unknown> = {}) =>
  `${typeof route === 'string' ? route : route.owner.path}?${new URLSearchParams(query as Record<string, string>).toString()}`) as ApiAddress;

describe('thumbnailUrl', () => {
  it('has a picture for images, videos, music, PDFs and office documents; none for folders, text or empty files', () => {
    for (const name of [
      'a.JPG',
      'b.heic',
      'c.svg',
      'd.tiff',
      'e.mp4',
      'f.mp3',
      'g.pdf',
      'h.DOCX',
      'i.odp',
    ])
      expect(hasThumbnail(file(name)), name).toBe(true);
    for (const name of ['a.txt', 'b.zip', 'c.md'])
      expect(hasThumbnail(file(name)), name).toBe(false);
    expect(hasThumbnail({ ...file('x.jpg'), isFolder: true })).toBe(false);
    expect(thumbnailUrl(file('empty.jpg', { size: 0 }), api)).toBeNull();
  });

  it('draws the first page of PDFs and office documents as a whole page', () => {
    for (const name of ['a.pdf', 'b.DOCX', 'c.odp'])
      expect(coverIsPage(file(name)), name).toBe(true);
    for (const name of ['a.jpg', 'b.mp4', 'c.mp3'])
      expect(coverIsPage(file(name)), name).toBe(false);
  });

  it('names the content version, so a changed file is a new address', () => {
    const before = thumbnailUrl(file('a.jpg', { hash: 'aaaaaaaaaaaaaaaaaaaa' }), api);
    const after = thumbnailUrl(file('a.jpg', { hash: 'bbbbbbbbbbbbbbbbbbbb' }), api);
    expect(before).toBe('/view/thumbnail?id=f1&v=aaaaaaaaaaaaaaaa');
    expect(after).not.toBe(before);
    expect(thumbnailUrl(file('a.jpg'), api)).toBe(
      `/view/thumbnail?id=f1&v=${encodeURIComponent('10-2026-01-01 00:00:00').replace(/%20/g, '+')}`,
    );
  });

  it('opens HEIC, TIFF, SVG, camera RAW and Photoshop documents in the gallery, not any file', () => {
    const opened = ['a.heic', 'b.tif', 'c.svg', 'd.png', 'e.psd', 'f.DNG', 'g.cr2', 'h.NEF'];
    for (const name of [...opened, 'i.arw', 'j.raf', 'k.orf', 'l.rw2', 'm.pef', 'n.srw'])
      expect(isGalleryImage(file(name)), name).toBe(true);
    for (const name of ['a.txt', 'b.zip', 'c.raw.txt', 'd.x3f'])
      expect(isGalleryImage(file(name)), name).toBe(false);
  });

  it('has a thumbnail for camera RAW photos and Photoshop documents', () => {
    for (const name of ['a.dng', 'b.CR2', 'c.nef', 'd.arw', 'e.raf', 'f.orf', 'g.rw2', 'h.psd'])
      expect(hasThumbnail(file(name)), name).toBe(true);
    expect(thumbnailUrl(file('poster.psd'), api)).toMatch(/^\/view\/thumbnail\?id=f1&/);
  });
});

describe("the web app's image kinds", () => {
  const known = new Set([
    ...FILE_KIND_TABLE.flatMap((row) => row.suffixes),
    ...THUMBNAIL_SUFFIXES,
    ...GALLERY_IMAGE_SUFFIXES,
  ]);

  it("are the contract's table: a tile has a picture exactly for the suffixes it names", () => {
    const drawn = new Set(THUMBNAIL_SUFFIXES);
    for (const suffix of known)
      expect(hasThumbnail(file(`x.${suffix}`)), suffix).toBe(drawn.has(suffix));
  });

  it('open the gallery exactly for the images the table names', () => {
    const gallery = new Set(GALLERY_IMAGE_SUFFIXES);
    for (const suffix of known)
      expect(isGalleryImage(file(`x.${suffix}`)), suffix).toBe(gallery.has(suffix));
  });

  it('draw the pages of PDFs and every office document', () => {
    for (const suffix of ['pdf', ...OFFICE_SUFFIXES])
      expect(coverIsPage(file(`x.${suffix}`)), suffix).toBe(true);
  });
});
