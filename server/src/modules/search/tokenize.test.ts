import { describe, expect, it } from 'vitest';
import {
  foldName,
  foldWord,
  hasCjk,
  indexTerms,
  nameQuery,
  nameQueryMatches,
  normalizeText,
  parseQuery,
  uniqueTerms,
} from './tokenize.ts';

describe('index terms', () => {
  it('turns a Chinese run into its characters and overlapping pairs', () => {
    expect(indexTerms('项目报告')).toEqual(['项', '项目', '目', '目报', '报', '报告', '告']);
  });

  it('splits words at separators, digits and camelCase humps, folded', () => {
    const terms = uniqueTerms('IMG_20230101 MyDocument');
    for (const t of ['img', '20230101', 'mydocument', 'my', 'document']) expect(terms).toContain(t);
    expect(terms.every((t) => t === t.toLowerCase())).toBe(true);
  });

  it('folds case, compatibility forms and diacritics', () => {
    expect(foldWord('Café')).toBe('cafe');
    expect(foldWord('ＡＢＣ')).toBe('abc');
    expect(normalizeText('ＡＢＣ Café')).toBe('abc café');
  });

  it('mixes Chinese and other words in one text', () => {
    const terms = uniqueTerms('季度report2024总结');
    expect(terms).toEqual(expect.arrayContaining(['季度', 'report2024', 'report', '2024', '总结']));
  });

  it('leaves out terms too long to be words (hashes)', () => {
    const hash = 'a'.repeat(64);
    expect(indexTerms(`file ${hash}`)).toEqual(['file']);
  });

  it('keeps repeats, which ranking counts', () => {
    expect(indexTerms('data data').filter((t) => t === 'data')).toHaveLength(2);
  });
});

describe('queries', () => {
  it('asks for the pairs of a Chinese run and the character alone', () => {
    expect(parseQuery('报告').terms).toEqual([{ term: '报告', prefix: false }]);
    expect(parseQuery('会议纪').terms.map((t) => t.term)).toEqual(['会议', '议纪']);
    expect(parseQuery('票').terms).toEqual([{ term: '票', prefix: false }]);
  });

  it('matches other words by prefix, or whole when exact', () => {
    expect(parseQuery('Invoice').terms).toEqual([{ term: 'invoice', prefix: true }]);
    expect(parseQuery('Invoice', true).terms).toEqual([{ term: 'invoice', prefix: false }]);
  });

  it('lets a single letter or digit match only itself', () => {
    expect(parseQuery('2').terms).toEqual([{ term: '2', prefix: false }]);
  });

  it('drops a prefix made redundant by a longer word', () => {
    expect(parseQuery('rep report').terms.map((t) => t.term)).toEqual(['report']);
  });

  it('keeps the words to highlight and the folded keyword', () => {
    const q = parseQuery('  项目 Report ');
    expect(q.highlights).toEqual(['项目', 'Report']);
    expect(q.normalized).toBe('项目 report');
  });

  it('knows Chinese, Japanese and Korean text', () => {
    expect(hasCjk('报告')).toBe(true);
    expect(hasCjk('カタカナ')).toBe(true);
    expect(hasCjk('한국어')).toBe(true);
    expect(hasCjk('report')).toBe(false);
  });
});

describe('name queries', () => {
  it('fold names and keywords alike: case, full width, Latin accents; kana marks stay', () => {
    expect(foldName('Résumé ＡＢＣ.PDF')).toBe('resume abc.pdf');
    expect(foldName('がか')).toBe('がか');
    expect(nameQueryMatches('Résumé.pdf', nameQuery('resume'))).toBe(true);
  });

  it('look for each word anywhere in the name, symbols as typed, CJK words by their pairs', () => {
    const q = nameQuery('item_2 %  PORT');
    expect(q.parts).toEqual(['item_2', '%', 'port']);
    expect(nameQueryMatches('item_205 100% report.txt', q)).toBe(true);
    expect(nameQueryMatches('item-205 100% report.txt', q)).toBe(false);
    expect(nameQueryMatches('年度报告.docx', nameQuery('报告'))).toBe(true);
    expect(nameQueryMatches('目总结项目.txt', nameQuery('项目总结'))).toBe(true);
    // a piece inside another adds nothing
    expect(nameQuery('rep report').parts).toEqual(['report']);
  });
});
