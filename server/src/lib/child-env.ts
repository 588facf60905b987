/**
 * What an outside program (ffmpeg, dcraw, tesseract, LibreOffice, bsdtar…) is given of the
 * server's environment: where programs and locales are, and nothing else. These programs read
 * files people upload; were one of them ever made to misbehave by such a file, it would find no
 * database address, secret key or other setting of the server to give away.
 */
const PASSED = [
  'PATH',
  'HOME',
  'TMPDIR',
  'TZ',
  'LANG',
  'LANGUAGE',
  'LC_ALL',
  'LC_CTYPE',
  'TESSDATA_PREFIX',
  'FONTCONFIG_FILE',
  'FONTCONFIG_PATH',
] as const;

/** The environment of a program the server runs: PASSED from its own, then `extra`. */
export function childEnv(
  extra: NodeJS.ProcessEnv = {},
  from: NodeJS.ProcessEnv = process.env,
): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const name of PASSED) if (from[name] !== undefined) env[name] = from[name];
  return { ...env, ...extra };
}
