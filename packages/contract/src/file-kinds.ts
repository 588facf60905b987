import { RAW_PHOTO_SUFFIXES } from './images.ts';

/** What a file's icon shows: a finer grain than its type. */
export type FileKind =
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

/** The type the server stores for a file, which the views of spec §2 filter by. */
export type FileType =
  'folder' | 'image' | 'video' | 'audio' | 'document' | 'text' | 'archive' | 'other';

/** One line of the table: suffixes of one kind and type. */
export interface FileKindRow {
  readonly kind: FileKind;
  readonly type: FileType;
  /** Read as text by its name: previewed as text, served as plain text unless it is markup. */
  readonly isText: boolean;
  readonly suffixes: readonly string[];
}

const row = (kind: FileKind, type: FileType, isText: boolean, suffixes: string): FileKindRow => ({
  kind,
  type,
  isText,
  suffixes: suffixes.split(/\s+/).filter(Boolean),
});

/**
 * Every suffix the drive knows, once (a test checks it): its icon, its stored type, whether it
 * is text. Suffixes are lower case; a suffix not here is `other`. `.ts` is TypeScript and `.key`
 * a private key (docs/DECISIONS.md, "file kinds").
 */
export const FILE_KIND_TABLE: readonly FileKindRow[] = [
  row(
    'image',
    'image',
    false,
    `jpg jpeg jfif png apng gif bmp webp avif ico svg tif tiff heic heif psd raw ${RAW_PHOTO_SUFFIXES.join(' ')}`,
  ),
  row('video', 'video', false, 'mp4 mkv webm mov avi wmv flv m4v mpg mpeg 3gp m3u8 rmvb'),
  row('audio', 'audio', false, 'mp3 wav flac aac ogg oga m4a wma opus ape aiff mid midi'),
  row('pdf', 'document', false, 'pdf'),
  row('word', 'document', false, 'doc docx docm dot dotx odt ott rtf pages wps wpt'),
  row('excel', 'document', false, 'xls xlsx xlsm xlsb xlt xltx ods ots numbers et ett'),
  row('ppt', 'document', false, 'ppt pptx pptm pps ppsx pot potx odp otp dps dpt'),
  row('other', 'document', false, 'epub'),
  row('markdown', 'document', true, 'md markdown mdx'),
  row('mind', 'document', true, 'mind'),
  // an XMind map is a zip
  row('mind', 'document', false, 'xmind'),
  // draw.io diagrams are XML: never served inline (they could run as a page)
  row('drawio', 'document', false, 'drawio'),
  // writing and tables
  row('text', 'document', true, 'txt text csv tsv'),
  row('text', 'text', true, 'log srt vtt nfo diff patch'),
  row(
    'code',
    'text',
    true,
    'js mjs cjs ts mts cts tsx jsx py ipynb java c cc cpp cxx h hpp cs go rs rb php sh bash zsh fish bat cmd ps1 css scss sass less html htm xhtml vue svelte sql kt kts swift dart lua r pl scala groovy gradle json jsonc json5 xml yaml yml toml ini conf cfg properties env dockerfile makefile cmake proto graphql gql tf hcl zig ex exs erl hs elm clj fs vb',
  ),
  row(
    'archive',
    'archive',
    false,
    'zip tar gz tgz 7z rar bz2 tbz2 xz txz lz lz4 lzma zst jar war ear cab iso dmg deb rpm apk',
  ),
  // keys, certificates and keystores
  row(
    'key',
    'other',
    false,
    'pem key crt cer der csr p7b p7c p12 pfx jks keystore pub asc gpg sig ppk kdbx',
  ),
];

/** Names without a suffix that are text all the same (compared in lower case). */
export const TEXT_FILE_NAMES: ReadonlySet<string> = new Set(
  'dockerfile makefile readme license licence changelog .gitignore .gitattributes .editorconfig .env .npmrc .prettierrc .eslintrc'.split(
    ' ',
  ),
);

const rowBySuffix = new Map<string, FileKindRow>();
for (const r of FILE_KIND_TABLE) for (const s of r.suffixes) rowBySuffix.set(s, r);

/** The table's line for a suffix (any case), if it has one. */
export function fileKindRowOf(suffix: string): FileKindRow | undefined {
  return rowBySuffix.get(suffix.toLowerCase());
}

/** The icon kind of a file by its suffix. */
export function fileKindOf(suffix: string): FileKind {
  return fileKindRowOf(suffix)?.kind ?? 'other';
}

/** The type stored for a file or folder. */
export function fileTypeOf(suffix: string, isFolder: boolean): FileType {
  if (isFolder) return 'folder';
  return fileKindRowOf(suffix)?.type ?? 'other';
}

/** Text by its suffix: previewed as text, and served as plain text unless its content is markup. */
export function isTextSuffix(suffix: string): boolean {
  return fileKindRowOf(suffix)?.isText ?? false;
}

/**
 * The media type a file is stored and served with, by its suffix (lower case); the server's
 * serving decides on the bytes as well (file-serve.ts). A suffix not here is
 * `application/octet-stream`. Each agrees with the kind table: an `image/`, `video/` or
 * `audio/` type is given only to a suffix of that type (a test checks it).
 */
export const CONTENT_TYPES: Readonly<Record<string, string>> = {
  txt: 'text/plain',
  md: 'text/markdown',
  csv: 'text/csv',
  json: 'application/json',
  xml: 'application/xml',
  html: 'text/html',
  css: 'text/css',
  js: 'text/javascript',
  log: 'text/plain',
  yaml: 'text/yaml',
  yml: 'text/yaml',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  jfif: 'image/jpeg',
  png: 'image/png',
  apng: 'image/apng',
  gif: 'image/gif',
  bmp: 'image/bmp',
  webp: 'image/webp',
  svg: 'image/svg+xml',
  ico: 'image/x-icon',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  avif: 'image/avif',
  heic: 'image/heic',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mkv: 'video/x-matroska',
  mov: 'video/quicktime',
  avi: 'video/x-msvideo',
  m3u8: 'application/vnd.apple.mpegurl',
  rmvb: 'application/vnd.rn-realmedia-vbr',
  // TypeScript, not an MPEG transport stream (`video/mp2t`): see FILE_KIND_TABLE
  ts: 'text/plain',
  mp3: 'audio/mpeg',
  wav: 'audio/wav',
  flac: 'audio/flac',
  aac: 'audio/aac',
  ogg: 'audio/ogg',
  m4a: 'audio/mp4',
  opus: 'audio/opus',
  mid: 'audio/midi',
  midi: 'audio/midi',
  pdf: 'application/pdf',
  epub: 'application/epub+zip',
  zip: 'application/zip',
  gz: 'application/gzip',
  tgz: 'application/gzip',
  tar: 'application/x-tar',
  '7z': 'application/x-7z-compressed',
  rar: 'application/vnd.rar',
  doc: 'application/msword',
  xls: 'application/vnd.ms-excel',
  ppt: 'application/vnd.ms-powerpoint',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  pptx: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  odp: 'application/vnd.oasis.opendocument.presentation',
  mind: 'application/json',
  drawio: 'application/xml',
};

/** The media type of a file by its suffix (any case), `folder` for a folder. */
export function contentTypeOf(suffix: string, isFolder: boolean): string {
  if (isFolder) return 'folder';
  return CONTENT_TYPES[suffix.toLowerCase()] ?? 'application/octet-stream';
}

/**
 * Images a browser draws from their own bytes: the web app views them as they are and the server
 * serves them inline; every other image is converted to WebP for viewing, or downloaded.
 */
export const BROWSER_IMAGE_SUFFIXES: readonly string[] = [
  'jpg',
  'jpeg',
  'jfif',
  'png',
  'apng',
  'gif',
  'bmp',
  'webp',
  'avif',
  'ico',
];

/** How an archive is read when it is listed or extracted. */
export type ArchiveKind = 'zip' | 'tar' | 'tgz' | '7z' | 'rar';

/**
 * The archives the server lists and extracts, by the file's whole name (a `.tar.gz` is one):
 * zip (and jar), tar, tar.gz or tgz, 7z and rar; null for anything else.
 */
export function archiveKindOf(name: string): ArchiveKind | null {
  const lower = name.toLowerCase();
  if (lower.endsWith('.zip') || lower.endsWith('.jar')) return 'zip';
  if (lower.endsWith('.tar.gz') || lower.endsWith('.tgz')) return 'tgz';
  if (lower.endsWith('.tar')) return 'tar';
  if (lower.endsWith('.7z')) return '7z';
  if (lower.endsWith('.rar')) return 'rar';
  return null;
}
