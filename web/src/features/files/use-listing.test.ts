import { QueryClient } from '@tanstack/react-query';
import { describe, expect, it, vi } from 'vitest';
import type { LiveMessage } from '../../api/events';
import { fileKeys } from './api';
import { flattenPages, totalOf, type ListingData } from './listing';
import { makeFileItem } from './test-builders';
import type { FileItem, ListingKey } from './types';
import { applyFileMessages } from './use-listing';

const item = (name: string) => makeFileItem(name, { path: '/big/' });

const names = (count: number) =>
  Array.from({ length: count }, (_, i) => `f${String(i).padStart(6, '0')}.txt`);

function cached(key: ListingKey, items: FileItem[]): QueryClient {
  const client = new QueryClient();
  const pages = [];
  for (let at = 0; at < items.length; at += 100)
    pages.push({ items: items.slice(at, at + 100), total: items.length, pageIndex: at / 100 + 1 });
  client.setQueryData<ListingData>(fileKeys.list(key), {
    pages,
    pageParams: pages.map((p) => p.pageIndex),
  });
  return client;
}

const folder: ListingKey = { kind: 'home', path: '/big/', sortProp: 'name', order: 'ascending' };
const read = (client: QueryClient, key = folder) =>
  client.getQueryData<ListingData>(fileKeys.list(key));

/** Counts the writes of cached data from now until `stop()`, which answers the count. */
function listingWrites(client: QueryClient): { stop: () => number } {
  let writes = 0;
  const unsubscribe = client.getQueryCache().subscribe((event) => {
    if (event.type === 'updated' && event.action.type === 'success') writes += 1;
  });
  return {
    stop: () => {
      unsubscribe();
      return writes;
    },
  };
}

describe('live messages of a bulk operation', () => {
  it('removes a burst of 20,000 deletions in one pass over the listing', () => {
    const all = names(20_000).map((name) => item(name));
    const client = cached(folder, all);
    const messages: LiveMessage[] = all
      .slice(0, 19_990)
      .map((i) => ({ url: 'deleteFile', body: i.path, fileId: i.id }));
    // one message at a time walked all 20,000 items per message: the listing is written once
    const writes = listingWrites(client);
    applyFileMessages(client, messages);
    expect(writes.stop()).toBe(1);
    expect(flattenPages(read(client)).map((i) => i.name)).toEqual(names(20_000).slice(19_990));
    expect(totalOf(read(client))).toBe(10);
  });

  it('moves many items out of the folder and reloads the folder they went to once', () => {
    const all = names(300).map((name) => item(name));
    const client = cached(folder, all);
    const target: ListingKey = { ...folder, path: '/target/' };
    client.setQueryData<ListingData>(fileKeys.list(target), {
      pages: [{ items: [], total: 0, pageIndex: 1 }],
      pageParams: [1],
    });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    const messages: LiveMessage[] = [];
    // a move sends each item's deletion and creation, then every result
    for (const i of all) {
      messages.push({ url: 'deleteFile', body: '/big/', fileId: i.id });
      messages.push({ url: 'createFile', body: { ...i, path: '/target/' } });
    }
    for (const i of all)
      messages.push({
        url: 'operationFile',
        body: { operation: 'move', code: 0, from: `/big/${i.name}`, to: `/target/${i.name}` },
      });
    applyFileMessages(client, messages);
    expect(flattenPages(read(client))).toEqual([]);
    const reloads = invalidate.mock.calls.filter(
      ([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(fileKeys.list(target)),
    );
    expect(reloads).toHaveLength(1);
  });

  it('asks again for the folder a deletion names when the message names no item', () => {
    const client = cached(
      folder,
      names(3).map((name) => item(name)),
    );
    const other: ListingKey = { ...folder, path: '/other/' };
    client.setQueryData<ListingData>(fileKeys.list(other), {
      pages: [{ items: [], total: 0, pageIndex: 1 }],
      pageParams: [1],
    });
    const invalidate = vi.spyOn(client, 'invalidateQueries');
    // the original server's shape: only the path of the folder the item left
    applyFileMessages(client, [{ url: 'deleteFile', body: '/big/' }]);
    const reloaded = (key: ListingKey) =>
      invalidate.mock.calls.some(
        ([filters]) => JSON.stringify(filters?.queryKey) === JSON.stringify(fileKeys.list(key)),
      );
    expect(reloaded(folder)).toBe(true);
    expect(reloaded(other)).toBe(false);
  });

  it('marks 20,000 favorites in one pass and shows them in the favorites view', () => {
    const all = names(20_000).map((name) => item(name));
    const client = cached(folder, all);
    const favorites: ListingKey = {
      kind: 'favorite',
      path: '',
      sortProp: 'name',
      order: 'ascending',
    };
    client.setQueryData<ListingData>(fileKeys.list(favorites), {
      pages: [{ items: [], total: 0, pageIndex: 1 }],
      pageParams: [1],
    });
    // one pass: each cached listing is written once for the whole batch, not once per message
    const writes = listingWrites(client);
    applyFileMessages(
      client,
      all.map((i) => ({ url: 'updateFile', body: { ...i, isFavorite: true } })),
    );
    // at most once for each of the two listings cached
    const written = writes.stop();
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThanOrEqual(2);
    expect(flattenPages(read(client)).every((i) => i.isFavorite)).toBe(true);
    expect(flattenPages(read(client))).toHaveLength(20_000);
  });

  it('applies a single message as before', () => {
    const client = cached(folder, [item('a.txt'), item('c.txt')]);
    applyFileMessages(client, [{ url: 'createFile', body: item('b.txt') }]);
    expect(flattenPages(read(client)).map((i) => i.name)).toEqual(['a.txt', 'b.txt', 'c.txt']);
  });
});
