/**
 * Query parameters whose values are secrets, by name in any case and spelling (`shareToken`,
 * `share-token`, `access_token`, `mfaToken`, `code`, `oldPassword`…): tokens, codes, passwords.
 */
const SECRET_PARAM = /token|code|pass|pwd|secret|key|auth|cookie|session|sig/i;

/**
 * A run shaped like a token: 32 or more URL-safe characters with both cases (random base64url:
 * session and access tokens, the two halves of a share token). Ids and hashes are lower case
 * and stay readable.
 */
const TOKEN_RUN = /[A-Za-z0-9_-]{32,}/g;
const looksRandom = (run: string) => /[a-z]/.test(run) && /[A-Z]/.test(run);

/** Path segments that hold a share token: `/share-file/<id>/<token>/…`, `/video/hls/<share>/<token>/…`. */
const TOKEN_SEGMENTS = [
  /(\/share-file\/[^/?#]+\/)[^/?#]+(?=\/[^/?#]+)/,
  /(\/public\/video\/hls\/[^/?#]+\/)(?!-\/)[^/?#]+(?=\/)/,
];

const MASK = '***';

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}

/** A value decoded until it no longer changes (a URL nested in a URL is encoded twice). */
function fullyDecoded(text: string): string {
  let value = text;
  for (let i = 0; i < 4; i++) {
    const next = decoded(value);
    if (next === value) break;
    value = next;
  }
  return value;
}

const maskTokenRuns = (text: string) =>
  text.replace(TOKEN_RUN, (run) => (looksRandom(run) ? MASK : run));

function redactPath(path: string): string {
  let masked = path;
  for (const pattern of TOKEN_SEGMENTS) masked = masked.replace(pattern, `$1${MASK}`);
  return masked
    .split('/')
    .map((segment) =>
      maskTokenRuns(fullyDecoded(segment)) === fullyDecoded(segment) ? segment : MASK,
    )
    .join('/');
}

function redactQuery(query: string): string {
  return query
    .split('&')
    .map((part) => {
      const eq = part.indexOf('=');
      const name = eq < 0 ? part : part.slice(0, eq);
      if (eq >= 0 && SECRET_PARAM.test(decoded(name))) return `${name}=${MASK}`;
      if (eq < 0) return maskTokenRuns(fullyDecoded(part)) === fullyDecoded(part) ? part : MASK;
      // a value may itself be an address or a query with secrets in it (the PDF viewer's `file`)
      const value = fullyDecoded(part.slice(eq + 1));
      const masked = maskTokenRuns(/[?&=]/.test(value) ? redactUrl(value) : value);
      return masked === value ? part : `${name}=${encodeURIComponent(masked)}`;
    })
    .join('&');
}

/**
 * A URL with every secret masked, as the request log keeps it: parameters named like a secret,
 * secrets nested in another parameter's value (plain or encoded), the token segment of share
 * paths, and anything shaped like a token wherever it sits.
 */
export function redactUrl(url: string): string {
  const hash = url.indexOf('#');
  const bare = hash < 0 ? url : url.slice(0, hash);
  const at = bare.indexOf('?');
  if (at < 0) {
    // a nested value without a path part: `a=1&token=…`
    if (bare.includes('=') && !bare.includes('/')) return redactQuery(bare);
    return redactPath(bare);
  }
  return `${redactPath(bare.slice(0, at))}?${redactQuery(bare.slice(at + 1))}`;
}
