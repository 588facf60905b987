import { sql, type Kysely } from 'kysely';

/**
 * The server and the web app read file types from one table (`FILE_KIND_TABLE` in the contract).
 * Files stored before take the type that table gives their suffix, where it differs from the
 * type the server's own list gave; a few also take the content type they now get. The values are
 * written out here, so this step means the same whatever the table becomes.
 */
const TYPES: Record<string, string> = {
  image: 'jfif apng raw',
  video: 'rmvb',
  audio: 'mid midi',
  document:
    'docm dot dotx ott wps wpt xlsm xlsb xlt xltx ots et ett pptm pps ppsx pot potx otp dps dpt markdown mdx xmind text tsv',
  text: 'srt vtt nfo diff patch mjs cjs mts cts ipynb cc cxx hpp cs rb php bash zsh fish bat cmd ps1 scss sass less htm xhtml vue svelte kt kts swift dart lua r pl scala groovy gradle jsonc json5 cfg properties env dockerfile makefile cmake proto graphql gql tf hcl zig ex exs erl hs elm clj fs vb',
  archive: 'tbz2 txz lz lz4 lzma zst war ear cab iso dmg deb rpm apk',
  // a private key, not a Keynote deck
  other: 'key',
};

/** Content types newly known, as [suffix, the type it had, the type it has]. */
const CONTENT_TYPES: Array<[string, string, string]> = [
  ['jfif', 'application/octet-stream', 'image/jpeg'],
  ['apng', 'application/octet-stream', 'image/apng'],
  ['mid', 'application/octet-stream', 'audio/midi'],
  ['midi', 'application/octet-stream', 'audio/midi'],
  ['rmvb', 'application/octet-stream', 'application/vnd.rn-realmedia-vbr'],
  // TypeScript, not an MPEG transport stream
  ['ts', 'video/mp2t', 'text/plain'],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [type, suffixes] of Object.entries(TYPES)) {
    const list = suffixes.split(' ');
    await sql`update file set file_type = ${type}
      where is_folder = 0 and suffix in (${sql.join(list)}) and file_type <> ${type}`.execute(db);
  }
  for (const [suffix, was, now] of CONTENT_TYPES) {
    await sql`update file set content_type = ${now}
      where is_folder = 0 and suffix = ${suffix} and content_type = ${was}`.execute(db);
  }
}

export async function down(): Promise<void> {
  // the earlier types are not read by anything any more
}
