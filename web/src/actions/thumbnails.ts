import {
  COVER_SUFFIXES,
  GALLERY_IMAGE_SUFFIXES,
  imagesApi,
  imagesVisitorApi,
  THUMBNAIL_SUFFIXES,
} from '@nimbus/contract';
import { suffixOf } from '../lib/file-kinds';
import type { ApiAddress, PreviewItem } from './viewers';
import { ownerSource } from './preview-sources';

// the contract's table of image kinds: what the server draws, converts and covers
const THUMBNAILS = new Set(THUMBNAIL_SUFFIXES);
const GALLERY_IMAGES = new Set(GALLERY_IMAGE_SUFFIXES);
const PAGES = new Set<string>(COVER_SUFFIXES.page);

type Kind = Pick<PreviewItem, 'name' | 'suffix' | 'isFolder'>;

/** Whether the server has (or makes) a picture for this item's tile. */
export function hasThumbnail(item: Kind): boolean {
  return !item.isFolder && THUMBNAILS.has(suffixOf(item));
}

/** Whether the item's picture is a page (a PDF's or an office document's first one). */
export function coverIsPage(item: Kind): boolean {
  return !item.isFolder && PAGES.has(suffixOf(item));
}

/** Whether the gallery viewer opens this item. */
export function isGalleryImage(item: Kind): boolean {
  return !item.isFolder && GALLERY_IMAGES.has(suffixOf(item));
}

/** A thumbnail and an image to view, as the owner and as a share's visitors reach them. */
const THUMBNAIL = { owner: imagesApi.thumbnail, visitor: imagesVisitorApi.thumbnail };
const IMAGE = { owner: imagesApi.image, visitor: imagesVisitorApi.image };

/** The version in the address: a changed file is a new address, so no stale picture shows. */
const versionOf = (item: Pick<PreviewItem, 'hash' | 'updateDate' | 'size'>) =>
  item.hash ? item.hash.slice(0, 16) : `${item.size}-${item.updateDate}`;

/**
 * The one address of an item's thumbnail (a 256 px WebP: the image itself, a video's frame, an
 * album's cover, the first page of a PDF or an office document), for the drive, the mount browser and the share page; null
 * when the item has none. `api` is the page's source (`ownerSource().api` unless told).
 */
export function thumbnailUrl(
  item: Kind & Pick<PreviewItem, 'id' | 'hash' | 'updateDate' | 'size'>,
  api: ApiAddress = ownerSource().api,
): string | null {
  if (!hasThumbnail(item) || item.size === 0) return null;
  return api(THUMBNAIL, { id: item.id, v: versionOf(item) });
}

/** The address of an image as the gallery shows it (HEIC, TIFF, RAW, PSD and SVG as WebP). */
export function viewableImageUrl(
  item: Pick<PreviewItem, 'id' | 'hash' | 'updateDate' | 'size'>,
  api: ApiAddress,
): string {
  return api(IMAGE, { id: item.id, v: versionOf(item) });
}
