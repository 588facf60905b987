import type { HLJSApi, LanguageFn } from 'highlight.js';

type Loader = () => Promise<{ default: LanguageFn }>;

/** The languages highlighted, each loaded on first use. */
const LANGUAGES: Record<string, Loader> = {
  javascript: () => import('highlight.js/lib/languages/javascript'),
  typescript: () => import('highlight.js/lib/languages/typescript'),
  python: () => import('highlight.js/lib/languages/python'),
  java: () => import('highlight.js/lib/languages/java'),
  c: () => import('highlight.js/lib/languages/c'),
  cpp: () => import('highlight.js/lib/languages/cpp'),
  csharp: () => import('highlight.js/lib/languages/csharp'),
  go: () => import('highlight.js/lib/languages/go'),
  rust: () => import('highlight.js/lib/languages/rust'),
  ruby: () => import('highlight.js/lib/languages/ruby'),
  php: () => import('highlight.js/lib/languages/php'),
  bash: () => import('highlight.js/lib/languages/bash'),
  powershell: () => import('highlight.js/lib/languages/powershell'),
  css: () => import('highlight.js/lib/languages/css'),
  scss: () => import('highlight.js/lib/languages/scss'),
  less: () => import('highlight.js/lib/languages/less'),
  xml: () => import('highlight.js/lib/languages/xml'),
  sql: () => import('highlight.js/lib/languages/sql'),
  kotlin: () => import('highlight.js/lib/languages/kotlin'),
  swift: () => import('highlight.js/lib/languages/swift'),
  dart: () => import('highlight.js/lib/languages/dart'),
  lua: () => import('highlight.js/lib/languages/lua'),
  r: () => import('highlight.js/lib/languages/r'),
  perl: () => import('highlight.js/lib/languages/perl'),
  scala: () => import('highlight.js/lib/languages/scala'),
  groovy: () => import('highlight.js/lib/languages/groovy'),
  json: () => import('highlight.js/lib/languages/json'),
  yaml: () => import('highlight.js/lib/languages/yaml'),
  ini: () => import('highlight.js/lib/languages/ini'),
  dockerfile: () => import('highlight.js/lib/languages/dockerfile'),
  makefile: () => import('highlight.js/lib/languages/makefile'),
  protobuf: () => import('highlight.js/lib/languages/protobuf'),
  graphql: () => import('highlight.js/lib/languages/graphql'),
  markdown: () => import('highlight.js/lib/languages/markdown'),
  diff: () => import('highlight.js/lib/languages/diff'),
};

const BY_SUFFIX: Record<string, string> = {
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  jsx: 'javascript',
  ts: 'typescript',
  tsx: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  py: 'python',
  java: 'java',
  c: 'c',
  h: 'c',
  cc: 'cpp',
  cpp: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  go: 'go',
  rs: 'rust',
  rb: 'ruby',
  php: 'php',
  sh: 'bash',
  bash: 'bash',
  zsh: 'bash',
  ps1: 'powershell',
  css: 'css',
  scss: 'scss',
  sass: 'scss',
  less: 'less',
  html: 'xml',
  htm: 'xml',
  xhtml: 'xml',
  xml: 'xml',
  svg: 'xml',
  vue: 'xml',
  svelte: 'xml',
  sql: 'sql',
  kt: 'kotlin',
  kts: 'kotlin',
  swift: 'swift',
  dart: 'dart',
  lua: 'lua',
  r: 'r',
  pl: 'perl',
  scala: 'scala',
  groovy: 'groovy',
  gradle: 'groovy',
  json: 'json',
  jsonc: 'json',
  json5: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  toml: 'ini',
  ini: 'ini',
  conf: 'ini',
  cfg: 'ini',
  properties: 'ini',
  proto: 'protobuf',
  graphql: 'graphql',
  md: 'markdown',
  markdown: 'markdown',
  mdx: 'markdown',
  diff: 'diff',
  patch: 'diff',
};

const BY_NAME: Record<string, string> = { dockerfile: 'dockerfile', makefile: 'makefile' };

/** The language a file is highlighted in, from its name; null for plain text. */
export function languageOf(name: string, suffix: string): string | null {
  return BY_NAME[name.toLowerCase()] ?? BY_SUFFIX[suffix.toLowerCase()] ?? null;
}

let core: Promise<HLJSApi> | null = null;

/** highlight.js with the language registered: both load on first use. */
async function highlighter(language: string): Promise<HLJSApi> {
  core ??= import('highlight.js/lib/core').then((m) => m.default);
  const hljs = await core;
  if (!hljs.getLanguage(language)) {
    const load = LANGUAGES[language];
    if (!load) throw new Error(`no highlighting for ${language}`);
    hljs.registerLanguage(language, (await load()).default);
  }
  return hljs;
}

/**
 * The text highlighted, one HTML string per line: a token spanning lines (a block comment, a
 * template string) is closed at each line's end and opened again on the next. The HTML is
 * highlight.js's, which escapes the text.
 */
export async function highlightLines(text: string, language: string): Promise<string[]> {
  const hljs = await highlighter(language);
  const html = hljs.highlight(text, { language, ignoreIllegals: true }).value;
  const lines: string[] = [];
  const open: string[] = [];
  let line = '';
  const tag = /<span[^>]*>|<\/span>|\n/g;
  let at = 0;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    line += html.slice(at, m.index);
    at = m.index + m[0].length;
    if (m[0] === '\n') {
      lines.push(line + '</span>'.repeat(open.length));
      line = open.join('');
    } else if (m[0] === '</span>') {
      open.pop();
      line += m[0];
    } else {
      open.push(m[0]);
      line += m[0];
    }
  }
  lines.push(line + html.slice(at));
  return lines;
}
