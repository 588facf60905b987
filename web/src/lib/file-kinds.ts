import {
  BROWSER_IMAGE_SUFFIXES,
  TEXT_FILE_NAMES,
  archiveKindOf,
  fileKindOf,
  fileKindRowOf,
  isTextSuffix,
  type FileKind,
} from '@nimbus/contract';
import type { FileItem } from '@nimbus/contract';

/** What the type icon shows (the contract's table, plus folders). */
export type IconKind = FileKind | 'folder';

/** How a click opens an item. */
export type OpenKind = 'folder' | 'image' | 'text' | 'none';

/** Images a browser draws from the raw bytes (svg is served as an attachment, never inline). */
const VIEWABLE_IMAGES = new Set(BROWSER_IMAGE_SUFFIXES);

export function suffixOf(item: Pick<FileItem, 'name' | 'suffix'>): string {
  if (item.suffix) return item.suffix.toLowerCase();
  const dot = item.name.lastIndexOf('.');
  return dot > 0 ? item.name.slice(dot + 1).toLowerCase() : '';
}

export function iconKindOf(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): IconKind {
  if (item.isFolder) return 'folder';
  const s = suffixOf(item);
  if (!fileKindRowOf(s) && TEXT_FILE_NAMES.has(item.name.toLowerCase())) return 'text';
  return fileKindOf(s);
}

/** Text the preview dialog can show: plain text, markdown, source code and draw.io's XML. */
export function isTextLike(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): boolean {
  if (item.isFolder) return false;
  const s = suffixOf(item);
  return isTextSuffix(s) || s === 'drawio' || TEXT_FILE_NAMES.has(item.name.toLowerCase());
}

/** Images shown in the viewer and as grid thumbnails. */
export function isViewableImage(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): boolean {
  return !item.isFolder && VIEWABLE_IMAGES.has(suffixOf(item));
}

/** Archives the server lists and extracts (the contract's `archiveKindOf`). */
export function isExtractable(item: Pick<FileItem, 'name' | 'isFolder'>): boolean {
  return !item.isFolder && archiveKindOf(item.name) !== null;
}

export function openKindOf(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): OpenKind {
  if (item.isFolder) return 'folder';
  if (isViewableImage(item)) return 'image';
  if (isTextLike(item)) return 'text';
  return 'none';
}

/** The short label on a file icon: its extension, at most 4 letters. */
export function iconLabelOf(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): string {
  if (item.isFolder) return '';
  return suffixOf(item).slice(0, 4).toUpperCase();
}
