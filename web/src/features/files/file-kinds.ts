import { RAW_PHOTO_SUFFIXES } from '@nimbus/contract';
import type { FileItem } from './types';

/** What the type icon shows. */
export type IconKind =
  | 'folder'
  | 'image'
  | 'video'
  | 'audio'
  | 'pdf'
  | 'word'
  | 'excel'
  | 'ppt'
  | 'archive'
  | 'key'
  | 'markdown'
  | 'code'
  | 'text'
  | 'mind'
  | 'drawio'
  | 'other';

/** How a click opens an item. */
export type OpenKind = 'folder' | 'image' | 'text' | 'none';

const set = (list: string) => new Set(list.split(' '));

/** Images a browser draws from the raw bytes (svg is served as an attachment, never inline). */
const VIEWABLE_IMAGES = set('jpg jpeg png gif bmp webp avif ico apng jfif');
const IMAGES = new Set([
  ...set('jpg jpeg png gif bmp webp avif ico apng jfif svg tif tiff heic heif psd raw'),
  ...RAW_PHOTO_SUFFIXES,
]);
const VIDEOS = set('mp4 mkv webm mov avi wmv flv m4v mpg mpeg 3gp m3u8 rmvb');
const AUDIO = set('mp3 wav flac aac ogg oga m4a wma opus ape aiff mid midi');
const ARCHIVES = set(
  'zip tar gz tgz 7z rar bz2 tbz2 xz txz lz lz4 lzma zst jar war ear cab iso dmg deb rpm apk',
);
const CODE = set(
  'js mjs cjs ts mts cts tsx jsx py ipynb java c cc cpp cxx h hpp cs go rs rb php sh bash zsh fish bat cmd ps1 css scss sass less html htm xhtml vue svelte sql kt kts swift dart lua r pl scala groovy gradle json jsonc json5 xml yaml yml toml ini conf cfg properties env dockerfile makefile cmake proto graphql gql tf hcl zig ex exs erl hs elm clj fs vb',
);
/** Keys, certificates and keystores (`.key` here is a private key, not a Keynote deck). */
const KEYS = set('pem key crt cer der csr p7b p7c p12 pfx jks keystore pub asc gpg sig ppk kdbx');
const WORD = set('doc docx docm dot dotx odt ott rtf pages wps wpt');
const EXCEL = set('xls xlsx xlsm xlsb xlt xltx ods ots numbers et ett');
const PPT = set('ppt pptx pptm pps ppsx pot potx odp otp dps dpt');
const PLAIN_TEXT = set('txt text log csv tsv srt vtt nfo diff patch');
const MARKDOWN = set('md markdown mdx');
/** Names without a suffix that are text all the same. */
const TEXT_NAMES = set(
  'dockerfile makefile readme license licence changelog .gitignore .gitattributes .editorconfig .env .npmrc .prettierrc .eslintrc',
);

export function suffixOf(item: Pick<FileItem, 'name' | 'suffix'>): string {
  if (item.suffix) return item.suffix.toLowerCase();
  const dot = item.name.lastIndexOf('.');
  return dot > 0 ? item.name.slice(dot + 1).toLowerCase() : '';
}

export function iconKindOf(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): IconKind {
  if (item.isFolder) return 'folder';
  const s = suffixOf(item);
  if (IMAGES.has(s)) return 'image';
  if (VIDEOS.has(s)) return 'video';
  if (AUDIO.has(s)) return 'audio';
  if (s === 'pdf') return 'pdf';
  if (WORD.has(s)) return 'word';
  if (EXCEL.has(s)) return 'excel';
  if (PPT.has(s)) return 'ppt';
  if (ARCHIVES.has(s)) return 'archive';
  if (KEYS.has(s)) return 'key';
  if (MARKDOWN.has(s)) return 'markdown';
  if (s === 'mind' || s === 'xmind') return 'mind';
  if (s === 'drawio') return 'drawio';
  if (CODE.has(s)) return 'code';
  if (PLAIN_TEXT.has(s) || TEXT_NAMES.has(item.name.toLowerCase())) return 'text';
  return 'other';
}

/** Text the preview dialog can show: plain text, markdown and source code. */
export function isTextLike(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): boolean {
  if (item.isFolder) return false;
  const s = suffixOf(item);
  return (
    PLAIN_TEXT.has(s) ||
    MARKDOWN.has(s) ||
    CODE.has(s) ||
    s === 'mind' ||
    s === 'drawio' ||
    TEXT_NAMES.has(item.name.toLowerCase())
  );
}

/** Images shown in the viewer and as grid thumbnails. */
export function isViewableImage(item: Pick<FileItem, 'name' | 'suffix' | 'isFolder'>): boolean {
  return !item.isFolder && VIEWABLE_IMAGES.has(suffixOf(item));
}

/** Archives the server lists and extracts (zip, jar, tar, tar.gz, tgz, 7z, rar). */
export function isExtractable(item: Pick<FileItem, 'name' | 'isFolder'>): boolean {
  if (item.isFolder) return false;
  const lower = item.name.toLowerCase();
  return ['.zip', '.jar', '.tar', '.tar.gz', '.tgz', '.7z', '.rar'].some((ext) =>
    lower.endsWith(ext),
  );
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
