import { parse } from 'node:querystring';

// How query strings are read (API-NOTES §1.0). Lists come as repeated keys (`a=1&a=2`), and
// also in the bracketed form some HTTP libraries write (`a[]=1&a[]=2`, `a[0]=1`): both are the
// list `a`. An empty optional value (`sortProp=`) is a value not given.

const BRACKETED = /^(.+)\[\d*\]$/;

type Query = Record<string, string | string[]>;

/** The query string as an object; `key[]` and `key[n]` join the values of `key`. */
export function parseQueryString(text: string): Query {
  return joinBracketedKeys(parse(text, '&', '=', { maxKeys: 0 }));
}

/** The fields of a query or form with `key[]` and `key[n]` joined to the values of `key`. */
export function joinBracketedKeys<T>(fields: Record<string, T | T[] | undefined>) {
  const joined = Object.create(null) as Record<string, T | T[]>;
  for (const [key, value] of Object.entries(fields)) {
    if (value === undefined) continue;
    const name = BRACKETED.exec(key)?.[1] ?? key;
    const before = joined[name];
    joined[name] = before === undefined ? value : ([before, value].flat() as T[]);
  }
  return joined;
}

/** The query without its empty values: `sortProp=` means the same as no `sortProp`. */
export function withoutBlanks(query: unknown): unknown {
  if (!query || typeof query !== 'object' || Array.isArray(query)) return query;
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== ''));
}
