import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { endpoint, fillPath, pathParamNames } from './endpoint.ts';

describe('path parameters', () => {
  it('are named by the path: each `:name`, and `*` for a trailing `*`', () => {
    expect(pathParamNames('/pre-file/:id/:name')).toEqual(['id', 'name']);
    expect(pathParamNames('/file/:username/*')).toEqual(['username', '*']);
    expect(pathParamNames('/upload/sessions')).toEqual([]);
  });

  it('fill the path, each value encoded as one segment', () => {
    expect(fillPath('/pre-file/:id/:name', { id: 'a1', name: 'notes/2024 #1?.txt' })).toBe(
      '/pre-file/a1/notes%2F2024%20%231%3F.txt',
    );
    expect(fillPath('/upload/sessions/:id', { id: 'x y' })).toBe('/upload/sessions/x%20y');
    expect(fillPath('/tag/list')).toBe('/tag/list');
  });

  it('fill a trailing `*` with the rest of a path, its slashes kept', () => {
    expect(fillPath('/file/:username/*', { username: 'ann', '*': '/docs/a b/c%.txt' })).toBe(
      '/file/ann/docs/a%20b/c%25.txt',
    );
  });

  it('must all be given, and a segment not be empty', () => {
    expect(() => fillPath('/pre-file/:id/:name', { id: 'a1' })).toThrow(/name is missing/);
    expect(() => fillPath('/upload/sessions/:id', { id: '' })).toThrow(/id is empty/);
  });

  it("are the params schema's keys, or the definition is refused", () => {
    const params = z.object({ id: z.string(), name: z.string() });
    expect(
      endpoint({
        method: 'GET',
        path: '/pre-file/:id/:name',
        params,
        answer: 'bytes',
        access: 'user',
      }).params,
    ).toBe(params);
    expect(() =>
      endpoint({ method: 'GET', path: '/pre-file/:id', params, answer: 'bytes', access: 'user' }),
    ).toThrow(/the path names \[id\], its params \[id, name\]/);
    expect(() =>
      endpoint({ method: 'DELETE', path: '/upload/sessions/:id', answer: null, access: 'user' }),
    ).toThrow(/params \[\]/);
  });
});
