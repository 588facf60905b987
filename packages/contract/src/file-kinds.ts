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
