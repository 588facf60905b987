import { z } from 'zod';

/**
 * How a broken rule of a schema reads to a person, the same on the server and in the web app:
 * `chunkSize: required, a whole number` rather than `expected number, received NaN`. Set once,
 * for every schema of the process, when the contract is loaded; a message a schema gives itself
 * still wins.
 */
type Issue = z.core.$ZodRawIssue;

const KIND_WORDS: Record<string, string> = {
  int: 'a whole number',
  number: 'a number',
  bigint: 'a whole number',
  string: 'text',
  boolean: 'true or false',
  array: 'a list',
  object: 'an object',
  date: 'a date',
};

const kindWords = (expected: unknown) => KIND_WORDS[String(expected)] ?? String(expected);

function sizeWords(issue: { origin?: unknown }, bound: number | bigint): string {
  switch (issue.origin) {
    case 'string':
      return `${bound} character${bound === 1 ? '' : 's'}`;
    case 'array':
    case 'set':
      return `${bound} item${bound === 1 ? '' : 's'}`;
    case 'file':
      return `${bound} bytes`;
    default:
      return String(bound);
  }
}

export function describeIssue(issue: Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type': {
      const missing = issue.input === undefined || issue.input === null;
      return missing
        ? `required, ${kindWords(issue.expected)}`
        : `must be ${kindWords(issue.expected)}`;
    }
    case 'too_big': {
      const max = issue.maximum;
      if (issue.origin === 'number' || issue.origin === 'bigint' || issue.origin === 'date')
        return issue.inclusive ? `at most ${max}` : `less than ${max}`;
      return `at most ${sizeWords(issue, max)}`;
    }
    case 'too_small': {
      const min = issue.minimum;
      if (issue.origin === 'number' || issue.origin === 'bigint' || issue.origin === 'date')
        return issue.inclusive ? `at least ${min}` : `more than ${min}`;
      if (min === 1 && issue.origin === 'string') return 'required, not empty';
      if (min === 1 && issue.origin === 'array') return 'required, at least one item';
      return `at least ${sizeWords(issue, min)}`;
    }
    case 'invalid_value':
      if (issue.input === undefined)
        return `required, one of ${issue.values.map(String).join(', ')}`;
      return issue.values.length === 1
        ? `must be ${String(issue.values[0])}`
        : `one of ${issue.values.map(String).join(', ')}`;
    case 'invalid_format':
      return issue.format === 'regex'
        ? 'not in the expected form'
        : `must be a valid ${issue.format}`;
    case 'not_multiple_of':
      return `a multiple of ${String(issue.divisor)}`;
    case 'unrecognized_keys':
      return `unknown field${issue.keys.length === 1 ? '' : 's'} ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
}

z.config({ customError: describeIssue });

/** `chunkSize: required, a whole number; name: at most 255 characters`. */
export function describeIssues(issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>) {
  return issues
    .map((i) => (i.path.length ? `${i.path.map(String).join('.')}: ${i.message}` : i.message))
    .join('; ');
}

// ---- shared field shapes ------------------------------------------------------------------
// Query strings carry text; these read numbers, flags and lists from it so a missing field is
// reported as missing rather than as "not a number".

const blankToUndefined = (v: unknown) => (v === '' || v === null ? undefined : v);

const toNumber = (v: unknown) =>
  typeof v === 'string' ? (v.trim() === '' ? undefined : Number(v)) : v;

/** A number read from a query string (or a body): `queryNumber(z.number().int().min(1))`. */
export const queryNumber = <T extends z.ZodType>(inner: T) => z.preprocess(toNumber, inner);

/** A whole number from a query string or a body. */
export const wholeNumber = () =>
  queryNumber(
    z
      .number({
        error: (issue) =>
          issue.input === undefined ? 'required, a whole number' : 'must be a whole number',
      })
      .int(),
  );

/** `true`, `'true'` or `'1'` are true; anything else false. */
export const flag = () =>
  z.preprocess((v) => v === true || v === 'true' || v === '1' || v === 1, z.boolean());

/** Optional text of at most `max` characters; an empty value counts as absent. */
export const textField = (max: number) =>
  z.preprocess(blankToUndefined, z.string().max(max).optional());

/**
 * A list in the query string, sent as repeated keys (`a=1&a=2`) or comma-joined (`a=1,2`),
 * of at most `maxItems` items of at most `maxLength` characters.
 */
export const listField = (maxItems = 1000, maxLength = 64) =>
  z
    .preprocess(
      (v: string | number | readonly (string | number)[] | null | undefined) => {
        if (v === undefined || v === null || v === '') return [];
        const items = Array.isArray(v) ? v : [v];
        return items
          .flatMap((x) => String(x).split(','))
          .map((x) => x.trim())
          .filter(Boolean);
      },
      z.array(z.string().max(maxLength)).max(maxItems),
    )
    // a sender may leave the field out (the typed client too): it is the empty list
    .default([]);

// ---- names and paths a client encoded itself -------------------------------------------------

const ESCAPE = /%[0-9A-Fa-f]{2}/g;

/**
 * A name or path as its sender meant it. Clients written for the original API percent-encode
 * these fields themselves before their HTTP library encodes the query again, so `/Docs` arrives
 * as `%2FDocs` and `hello 2.txt` as `hello%202.txt` (in a JSON body too). The rule: a value that
 * is exactly `encodeURIComponent` of another text is that text. A name that merely contains `%`
 * (`50%.txt`, `100%25 sure.txt`: `%` not followed by two hex digits, or beside a space, a slash
 * or any character encodeURIComponent escapes) is kept as it is.
 */
export function decodeClientEscapes(value: string): string {
  if (!value.includes('%')) return value;
  let decoded: string;
  try {
    decoded = decodeURIComponent(value);
  } catch {
    return value;
  }
  const canonical = (s: string) => s.replace(ESCAPE, (e) => e.toUpperCase());
  return decoded !== value && encodeURIComponent(decoded) === canonical(value) ? decoded : value;
}

/**
 * A name or path field (`currentDirectory`, `filename`, `newFileName`, `path`, `relativePath`…)
 * of a query or body: decoded once more when its sender encoded it itself (decodeClientEscapes).
 */
export const clientText = <T extends z.ZodType<string>>(inner: T) =>
  z.preprocess((v) => (typeof v === 'string' ? decodeClientEscapes(v) : v), inner);
