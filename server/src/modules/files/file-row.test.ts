import { describe, expect, it } from 'vitest';
import { folderSums, withFolderSizes } from './file-row.ts';
import { foldersAlong } from './files.repo.ts';

describe('folder sizes', () => {
  it('names every folder along a path, outermost first, and none for the root', () => {
    expect(foldersAlong('/')).toEqual([]);
    expect(foldersAlong('/a/b/')).toEqual([
      { path: '/', name: 'a' },
      { path: '/a/', name: 'b' },
    ]);
    expect(foldersAlong('/文档 📁/子/')).toEqual([
      { path: '/', name: '文档 📁' },
      { path: '/文档 📁/', name: '子' },
    ]);
  });

  it('sums each file into every folder above it, and nothing into a look-alike name', () => {
    const sums = folderSums(
      ['/a/', '/a/b/', '/ab/', '/empty/'],
      [
        { path: '/a/', size: 1 },
        { path: '/a/b/', size: 10 },
        { path: '/ab/', size: 100 },
        { path: '/', size: 1000 },
      ],
    );
    expect(Object.fromEntries(sums)).toEqual({ '/a/': 11, '/a/b/': 10, '/ab/': 100, '/empty/': 0 });
  });

  it('gives the folders of a new tree the bytes below them', () => {
    const rows = withFolderSizes([
      { path: '/t/', name: 'x', isFolder: 1, size: 0 },
      { path: '/t/x/', name: 'y', isFolder: 1, size: 99 },
      { path: '/t/x/y/', name: 'f', isFolder: 0, size: 5 },
      { path: '/t/x/', name: 'g', isFolder: 0, size: 7 },
    ]);
    expect(rows.map((r) => r.size)).toEqual([12, 5, 5, 7]);
  });
});
