import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  clientText,
  decodeClientEscapes,
  describeIssues,
  flag,
  menuBody,
  listField,
  queryNumber,
  textField,
  wholeNumber,
} from './index.ts';

const messageOf = (schema: z.ZodType, input: unknown) => {
  const result = schema.safeParse(input);
  expect(result.success).toBe(false);
  return describeIssues(result.error!.issues);
};

describe('validation messages', () => {
  it('name each field and say what was wrong in words', () => {
    const chunk = z.object({
      chunkSize: wholeNumber(),
      filename: z.string().max(5),
      kind: z.enum(['file', 'folder']),
    });
    expect(messageOf(chunk, {})).toBe(
      'chunkSize: required, a whole number; filename: required, text; kind: required, one of file, folder',
    );
    expect(messageOf(chunk, { chunkSize: 'abc', filename: 'abcdef', kind: 'x' })).toBe(
      'chunkSize: must be a whole number; filename: at most 5 characters; kind: one of file, folder',
    );
    expect(messageOf(chunk.shape.chunkSize, '1.5')).toBe('must be a whole number');
    expect(messageOf(chunk.shape.chunkSize, 'abc')).toBe('must be a whole number');
  });

  it('describe limits of numbers, lists and text', () => {
    expect(messageOf(queryNumber(z.number().min(1).max(10)), '0')).toBe('at least 1');
    expect(messageOf(queryNumber(z.number().min(1).max(10)), '11')).toBe('at most 10');
    expect(messageOf(z.array(z.string()).min(1), [])).toBe('required, at least one item');
    expect(messageOf(z.string().min(1), '')).toBe('required, not empty');
    expect(messageOf(listField(2), 'a,b,c')).toBe('at most 2 items');
    expect(messageOf(z.object({ a: z.object({ b: z.boolean() }) }), { a: { b: 'x' } })).toBe(
      'a.b: must be true or false',
    );
  });

  it('keep a message a schema gives itself', () => {
    expect(messageOf(z.string().max(1, 'Too long, sorry'), 'ab')).toBe('Too long, sorry');
  });
});

describe('query fields', () => {
  it('read numbers, flags, text and lists from a query string', () => {
    expect(wholeNumber().parse('42')).toBe(42);
    expect(wholeNumber().optional().parse(undefined)).toBeUndefined();
    expect(queryNumber(z.number()).parse(' 1.5 ')).toBe(1.5);
    expect(flag().parse('true')).toBe(true);
    expect(flag().parse('1')).toBe(true);
    expect(flag().parse('false')).toBe(false);
    expect(flag().parse(undefined)).toBe(false);
    // the same flags in a JSON body: a menu's "hide" sent as text or a number
    expect(menuBody.parse({ name: 'm', menuType: 0, hide: 'false' }).hide).toBe(false);
    expect(menuBody.parse({ name: 'm', menuType: 0, hide: 1 }).hide).toBe(true);
    expect(menuBody.parse({ name: 'm', menuType: 0 }).hide).toBe(false);
    expect(textField(3).parse('')).toBeUndefined();
    expect(textField(3).parse(undefined)).toBeUndefined();
    expect(listField().parse(['a', 'b,c', ' d '])).toEqual(['a', 'b', 'c', 'd']);
    expect(listField().parse(undefined)).toEqual([]);
  });
});

describe('names and paths a client encoded itself', () => {
  it('decodes a value that is exactly the encoding of another text', () => {
    expect(decodeClientEscapes('%2FDocs')).toBe('/Docs');
    expect(decodeClientEscapes('hello%202.txt')).toBe('hello 2.txt');
    expect(decodeClientEscapes('Docs%2Fnote.txt')).toBe('Docs/note.txt');
    expect(decodeClientEscapes('%E6%96%87%E4%BB%B6')).toBe('文件');
    expect(decodeClientEscapes('%e6%96%87%e4%bb%b6')).toBe('文件');
  });

  it('keeps names that merely hold %', () => {
    for (const name of [
      '50%.txt',
      '100%25 sure.txt',
      '/100%25 sure/doc.md',
      '%41.txt',
      '%FF.txt',
      '文件%20.txt',
      'plain.txt',
      '/Docs',
    ])
      expect(decodeClientEscapes(name)).toBe(name);
  });

  it('applies to the fields that use clientText', () => {
    expect(clientText(z.string()).parse('%2FDocs')).toBe('/Docs');
    expect(clientText(z.string()).optional().parse(undefined)).toBeUndefined();
  });
});
