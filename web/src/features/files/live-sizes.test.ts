import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import { fileKeys } from './listing-cache';
import type { ListingData } from './listing';
import { changedFolders, foldersToResize } from './live-sizes';
import type { FileItem, ListingKey } from './types';

const folder = (path: string, name: string): FileItem =>
  ({ id: `${path}${name}`, path, name, isFolder: true, size: 0 }) as FileItem;

function listing(queryClient: QueryClient, path: string, items: FileItem[]): void {
  const key: ListingKey = { kind: 'home', path, sortProp: 'name', order: 'ascending' };
  const data: ListingData = {
    pages: [{ items, total: items.length, pageIndex: 1 }],
    pageParams: [1],
  };
  queryClient.setQueryData(fileKeys.list(key), data);
}

describe('folder sizes that follow live changes', () => {
  it('names the folders whose contents a batch changed', () => {
    const changed = changedFolders([
      { url: 'createFile', body: { path: '/a/b/', name: 'new.txt' } },
      { url: 'deleteFile', body: '/c/', fileId: 'x' },
      { url: 'operationFile', body: { from: '/d/e.txt', to: '/f/g/e.txt', code: 0 } },
      { url: 'taskCountChange', body: {} },
    ]);
    expect([...changed].sort()).toEqual(['/a/b/', '/c/', '/d/', '/f/g/']);
  });

  it('asks again for the listed folders a change lies below, not for the listing’s own level', () => {
    const queryClient = new QueryClient();
    listing(queryClient, '/', [folder('/', 'a'), folder('/', 'c'), folder('/', 'f')]);
    listing(queryClient, '/a/', [folder('/a/', 'b'), folder('/a/', 'z')]);
    const found = foldersToResize(queryClient, new Set(['/a/b/', '/f/g/h/']));
    expect([...found.keys()].sort()).toEqual(['/a', '/a/b', '/f']);
    // a file made in /a/ itself changes no size shown in the listing of /a/
    expect([...foldersToResize(queryClient, new Set(['/a/'])).keys()]).toEqual(['/a']);
  });
});
