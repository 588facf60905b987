/**
 * Text → index terms, and keyword → query, shared by both database dialects so the index and
 * the queries always agree.
 *
 * - CJK runs (Han, kana, Hangul) become overlapping bigrams plus single characters, so any one-,
 *   two- or longer substring of a run is found: a query run of n ≥ 2 characters needs its n-1
 *   bigrams, a single character needs its unigram.
 * - Other words come from Intl.Segmenter, folded (NFKC, lower case, no diacritics) and split at
 *   separators, letter/digit changes and camelCase humps (`IMG_20230101` → img_20230101's
 *   pieces `img`, `20230101`; `MyDocument` → `mydocument`, `my`, `document`). A query word
 *   matches any term it begins.
 * Terms hold only letters and digits, so a database tokenizer that splits on ASCII punctuation
 * and spaces (SQLite FTS5 `ascii`) keeps every term whole.
 */

const segmenter = new Intl.Segmenter('zh', { granularity: 'word' });

const CJK_CHAR = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}ー々〆]+/gu;
const NOT_WORD = /[^\p{L}\p{N}]+/u;
const MARKS = /\p{M}+/gu;
const ASCII_WORD = /^[A-Za-z0-9]+$/;
/** Terms longer than this (hashes, base64) are not worth an index entry. */
const MAX_TERM = 48;

// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;

/** A run of letters/digits split where letters turn into digits or lower case into upper. */
function subPieces(piece: string): string[] {
  if (!ASCII.test(piece)) {
    const parts = piece.split(/(?<=\p{L})(?=\p{N})|(?<=\p{N})(?=\p{L})|(?<=\p{Ll})(?=\p{Lu})/u);
    return parts.length > 1 ? parts : [];
  }
  // the same for ASCII without a regular expression: this runs for every word of every name
  let parts: string[] | undefined;
  let start = 0;
  let prev = 0; // 1 digit, 2 lower, 3 upper
  for (let i = 0; i < piece.length; i++) {
    const c = piece.charCodeAt(i);
    const kind = c >= 48 && c <= 57 ? 1 : c >= 97 && c <= 122 ? 2 : c >= 65 && c <= 90 ? 3 : 0;
    const cut =
      i > 0 &&
      ((prev === 1 && kind >= 2) || (prev >= 2 && kind === 1) || (prev === 2 && kind === 3));
    if (cut) {
      (parts ??= []).push(piece.slice(start, i));
      start = i;
    }
    prev = kind;
  }
  if (!parts) return [];
  parts.push(piece.slice(start));
  return parts;
}

/** Folding of non-CJK words: compatibility forms, case and diacritics. */
export function foldWord(word: string): string {
  if (ASCII.test(word)) return word.toLowerCase();
  return word.normalize('NFKD').replace(MARKS, '').normalize('NFC').toLowerCase();
}

/** The comparable form of a whole name or keyword (exact matching, ranking). */
export function normalizeText(text: string): string {
  return text.normalize('NFKC').toLowerCase();
}

function pushCjk(run: string, out: string[]): void {
  const chars = [...run];
  for (let i = 0; i < chars.length; i++) {
    out.push(chars[i]!);
    if (i + 1 < chars.length) out.push(chars[i]! + chars[i + 1]!);
  }
}

function pushWord(word: string, out: string[]): void {
  for (const piece of ASCII_WORD.test(word) ? [word] : word.split(NOT_WORD)) {
    if (!piece) continue;
    const folded = foldWord(piece);
    if (folded.length <= MAX_TERM) out.push(folded);
    for (const sub of subPieces(piece)) {
      const f = foldWord(sub);
      if (f.length <= MAX_TERM) out.push(f);
    }
  }
}

/** Walk the words of a text: CJK runs and other word-like segments, in order. */
function walk(text: string, onCjk: (run: string) => void, onWord: (word: string) => void): void {
  if (ASCII.test(text)) return words(text, onWord);
  const normalized = text.normalize('NFKC');
  let last = 0;
  for (const match of normalized.matchAll(CJK_RUN)) {
    const at = match.index;
    if (at > last) words(normalized.slice(last, at), onWord);
    onCjk(match[0]);
    last = at + match[0].length;
  }
  if (last < normalized.length) words(normalized.slice(last), onWord);
}

function words(text: string, onWord: (word: string) => void): void {
  // plain ASCII needs no dictionary: splitting on separators gives the same words, faster
  if (ASCII.test(text)) {
    for (const w of text.split(/[^A-Za-z0-9]+/)) if (w) onWord(w);
    return;
  }
  for (const s of segmenter.segment(text)) if (s.isWordLike) onWord(s.segment);
}

/** Every index term of a text, in order, repeats kept (term frequency matters for ranking). */
export function indexTerms(text: string): string[] {
  const out: string[] = [];
  walk(
    text,
    (run) => pushCjk(run, out),
    (word) => pushWord(word, out),
  );
  return out;
}

/** Index terms without repeats (names, tsvector input). */
export function uniqueTerms(text: string): string[] {
  return [...new Set(indexTerms(text))];
}

/** One condition of a query: an exact term, or a prefix of a term. */
export interface QueryTerm {
  term: string;
  prefix: boolean;
}

export interface ParsedQuery {
  /** Every condition must hold. */
  terms: QueryTerm[];
  /** The words a result shows highlighted: CJK runs and words as typed. */
  highlights: string[];
  /** The keyword folded, for exact (substring) matching and ranking. */
  normalized: string;
}

/**
 * A keyword as conditions. CJK: a single character is a unigram, longer runs their bigrams.
 * Other words: each piece a prefix (fuzzy) or a whole term (exact).
 */
export function parseQuery(keyword: string, exact = false): ParsedQuery {
  const terms = new Map<string, QueryTerm>();
  const highlights: string[] = [];
  const add = (term: string, prefix: boolean) => {
    if (!term || term.length > MAX_TERM) return;
    const known = terms.get(term);
    // an exact condition on a term is stricter than a prefix one on the same text
    if (!known || (known.prefix && !prefix)) terms.set(term, { term, prefix });
  };
  walk(
    keyword,
    (run) => {
      highlights.push(run);
      const chars = [...run];
      if (chars.length === 1) add(chars[0]!, false);
      for (let i = 0; i + 1 < chars.length; i++) add(chars[i]! + chars[i + 1]!, false);
    },
    (word) => {
      highlights.push(word);
      for (const piece of word.split(NOT_WORD)) {
        if (!piece) continue;
        const folded = foldWord(piece);
        // one letter or digit is too short to stand for every word it begins (`2` would
        // expand to every number): it matches itself only
        add(folded, !exact && [...folded].length > 1);
      }
    },
  );
  // a prefix condition made redundant by a longer one is dropped (`rep` beside `report`)
  const list = [...terms.values()].filter(
    (a) => !(a.prefix && [...terms.values()].some((b) => b !== a && b.term.startsWith(a.term))),
  );
  return {
    terms: list,
    highlights: [...new Set(highlights)],
    normalized: normalizeText(keyword.trim()),
  };
}

export const hasCjk = (text: string) => CJK_CHAR.test(text);

const LATIN_MARKS = /(?<=[\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}])\p{M}+/gu;

/**
 * The form a name is searched in (`search_doc.name_norm`): compatibility forms and case folded,
 * and the accents of Latin, Greek and Cyrillic letters dropped (`Résumé` → `resume`). Marks of
 * other scripts (kana voicing, Hangul) stay, so `が` never finds `か`.
 */
export function foldName(text: string): string {
  const lower = text.normalize('NFKC').toLowerCase();
  if (ASCII.test(lower)) return lower;
  return lower.normalize('NFKD').replace(LATIN_MARKS, '').normalize('NFC');
}

/** A keyword as name conditions: every one must hold for a name to match. */
export interface NameQuery {
  /** Pieces of the folded name, each found anywhere in it, every character as typed. */
  parts: string[];
  /** Index terms of the words holding CJK (their characters and pairs anywhere in the name). */
  terms: QueryTerm[];
  /** The folded keyword: names beginning with it come first. */
  key: string;
}

/**
 * What a file-name search looks for: each word of the keyword (split at spaces) anywhere in
 * the name, inside words too (`port` finds `report.txt`, `item_2` every `item_2xx`). A word
 * holding Chinese, Japanese or Korean keeps the index's rule for those scripts (its pairs of
 * characters anywhere, so `项目总结` finds `目总结项目`), which finds every name holding it.
 */
export function nameQuery(keyword: string): NameQuery {
  const parts = new Set<string>();
  const terms = new Map<string, QueryTerm>();
  for (const word of keyword.trim().split(/\s+/u)) {
    if (!word) continue;
    if (hasCjk(word)) {
      for (const t of parseQuery(word).terms) terms.set(`${t.term}\u0000${t.prefix}`, t);
    } else {
      const folded = foldName(word);
      if (folded) parts.add(folded);
    }
  }
  // a piece inside another piece adds nothing
  const list = [...parts].filter((p) => ![...parts].some((o) => o !== p && o.includes(p)));
  return { parts: list, terms: [...terms.values()], key: foldName(keyword.trim()) };
}

/** Whether a name matches a name query, decided as the database decides. */
export function nameQueryMatches(name: string, q: NameQuery): boolean {
  const folded = foldName(name);
  if (!q.parts.every((p) => folded.includes(p))) return false;
  if (q.terms.length === 0) return true;
  const terms = uniqueTerms(name);
  return q.terms.every((c) => terms.some((t) => (c.prefix ? t.startsWith(c.term) : t === c.term)));
}
