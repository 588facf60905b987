import { describe, expect, it } from 'vitest';
import { AppError } from '../../lib/errors.ts';
import { MAX_PATH_BYTES, MAX_PATH_DEPTH } from '@nimbus/contract';
import {
  checkName,
  checkPathLength,
  escapeLike,
  folderPathOf,
  numberedName,
  parseFolderPath,
  suffixOf,
} from './names.ts';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(AppError);
    return (err as AppError).message;
  }
  throw new Error('expected a refusal');
};

describe('names', () => {
  it('accepts names of every script and keeps them as given, in NFC', () => {
    expect(checkName('报告 final (2).txt')).toBe('报告 final (2).txt');
    expect(checkName('café'.normalize('NFD'))).toBe('café');
    expect(checkName('.hidden')).toBe('.hidden');
  });

  it('refuses empty names, dot names, separators and control characters', () => {
    expect(refusal(() => checkName(''))).toMatch(/empty/);
    expect(refusal(() => checkName('   '))).toMatch(/empty/);
    expect(refusal(() => checkName('.'))).toMatch(/cannot be used/);
    expect(refusal(() => checkName('..'))).toMatch(/cannot be used/);
    expect(refusal(() => checkName('a/b'))).toMatch(/"\/"/);
    expect(refusal(() => checkName('a\\b'))).toMatch(/"\/"/);
    expect(refusal(() => checkName('a\u0000b'))).toMatch(/control/);
    expect(refusal(() => checkName('a\nb'))).toMatch(/control/);
    expect(refusal(() => checkName('a\u009fb'))).toMatch(/control/);
    expect(refusal(() => checkName(42))).toMatch(/name/);
  });

  it('refuses marks that turn text around, wherever they are', () => {
    for (const mark of [
      '\u202a',
      '\u202b',
      '\u202c',
      '\u202d',
      '\u202e',
      '\u2066',
      '\u2067',
      '\u2068',
      '\u2069',
      '\u200e',
      '\u200f',
      '\u061c',
    ])
      expect(refusal(() => checkName(`photo${mark}gpj.exe`))).toMatch(/direction of text/);
    // a path to an item already stored is read as it is
    expect(parseFolderPath('/old\u202ename')).toEqual(['old\u202ename']);
    expect(refusal(() => parseFolderPath('/new\u202ename', checkName))).toMatch(/direction/);
  });

  it('refuses the names Windows keeps for devices, in any case, with any extension', () => {
    for (const name of [
      'CON',
      'con',
      'Prn',
      'AUX',
      'nul',
      'NUL.txt',
      'nul.tar.gz',
      'COM1',
      'com9.log',
      'LPT1',
      'lpt9',
      'CON.',
      'con ',
      'NUL .txt',
      'aux...',
      'COM¹',
      'conin$',
      'CONOUT$.txt',
    ])
      expect(
        refusal(() => checkName(name)),
        name,
      ).toMatch(/device/);
    for (const name of ['console.txt', 'CONFIG', 'com10', 'lpt0', 'nul_x', 'a.con', 'auxiliary'])
      expect(checkName(name)).toBe(name);
  });

  it('limits a path to MAX_PATH_BYTES and MAX_PATH_DEPTH', () => {
    const segment = 'a'.repeat(200);
    const fits = Array.from({ length: Math.floor(MAX_PATH_BYTES / 201) }, () => segment);
    expect(parseFolderPath(`/${fits.join('/')}`)).toHaveLength(fits.length);
    expect(refusal(() => parseFolderPath(`/${[...fits, segment].join('/')}`))).toMatch(
      /folder path is too long/,
    );
    const deep = Array.from({ length: MAX_PATH_DEPTH + 1 }, () => 'd');
    expect(refusal(() => parseFolderPath(deep.join('/')))).toMatch(/too deep/);
    expect(refusal(() => checkPathLength(deep, 'The relative path'))).toMatch(
      /^The relative path is too deep/,
    );
    expect(refusal(() => parseFolderPath('x'.repeat(100_000)))).toMatch(/too long/);
  });

  it('limits a name to 255 bytes of UTF-8, counted in its stored form', () => {
    expect(checkName('a'.repeat(255))).toHaveLength(255);
    expect(refusal(() => checkName('a'.repeat(256)))).toMatch(/too long/);
    // 85 Chinese characters are 255 bytes, 86 are 258
    expect(checkName('中'.repeat(85))).toHaveLength(85);
    expect(refusal(() => checkName('中'.repeat(86)))).toMatch(/too long/);
    // 100 × "é": 300 bytes decomposed, 200 composed
    expect(checkName('é'.repeat(100).normalize('NFD'))).toBe('é'.repeat(100));
  });

  it('reads folder paths segment by segment, never escaping the tree', () => {
    expect(parseFolderPath(undefined)).toEqual([]);
    expect(parseFolderPath('')).toEqual([]);
    expect(parseFolderPath('/')).toEqual([]);
    expect(parseFolderPath('undefined')).toEqual([]);
    expect(parseFolderPath('/a/b/')).toEqual(['a', 'b']);
    expect(parseFolderPath('a//b')).toEqual(['a', 'b']);
    expect(refusal(() => parseFolderPath('/a/../b'))).toMatch(/cannot be used/);
    expect(refusal(() => parseFolderPath('/a/./b'))).toMatch(/cannot be used/);
    expect(folderPathOf([])).toBe('/');
    expect(folderPathOf(['a', 'b'])).toBe('/a/b/');
  });

  it('numbers copies before the extension, folders at the end', () => {
    expect(numberedName('a.txt', 1, false)).toBe('a(1).txt');
    expect(numberedName('archive.tar.gz', 2, false)).toBe('archive.tar(2).gz');
    expect(numberedName('.env', 1, false)).toBe('.env(1)');
    expect(numberedName('dir.v2', 3, true)).toBe('dir.v2(3)');
    const long = `${'x'.repeat(250)}.txt`;
    expect(Buffer.byteLength(numberedName(long, 1, false))).toBeLessThanOrEqual(255);
  });

  it('takes the suffix in lower case, without the dot', () => {
    expect(suffixOf('Photo.JPG')).toBe('jpg');
    expect(suffixOf('README')).toBe('');
    expect(suffixOf('.env')).toBe('');
  });

  it('escapes LIKE patterns', () => {
    expect(escapeLike('50%_off\\')).toBe('50\\%\\_off\\\\');
  });
});
