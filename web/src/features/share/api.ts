import { shareApi, shareVisitorApi, type BodyIn } from '@nimbus/contract';
import type { MountView, PublicFileView, ShareFacts, ShareView } from '@nimbus/contract';
import {
  infiniteQueryOptions,
  useMutation,
  useQueryClient,
  type QueryClient,
} from '@tanstack/react-query';
import { callEndpoint, callEndpointEnvelope, callEndpointPage } from '../../api/endpoints';
import { fileKeys } from '../../api/file-keys';
import { MOUNTS_KEY, removeMount } from '../../api/mounts';
import { selectShare } from '../../stores/share-tokens';

export {
  sharedDownloadUrl,
  sharedPreviewUrl,
  sharedThumbnailUrl,
  sharedZipUrl,
} from '../../api/bytes';

export const shareKeys = {
  all: ['share'] as const,
  list: (page: number, pageSize: number) => ['share', 'list', page, pageSize] as const,
  byFile: (fileId: string) => ['share', 'by-file', fileId] as const,
  folderHasShares: (fileId: string) => ['share', 'folder-sub-share', fileId] as const,
  visit: (share: string) => ['share', 'visit', share] as const,
  folder: (share: string, path: string, page: number) =>
    ['share', 'visit', share, 'folder', path, page] as const,
  folderPages: (share: string, path: string) => ['share', 'visit', share, 'pages', path] as const,
  sharer: (share: string) => ['share', 'sharer', share] as const,
  text: (share: string, fileId: string) => ['share', 'text', share, fileId] as const,
  mounts: MOUNTS_KEY,
};

// ---- the owner's side ---------------------------------------------------------------------

export const generateShare = (body: BodyIn<typeof shareApi.generate>) =>
  callEndpoint(shareApi.generate, { body });

/** The file's own share, and the shared folder around it whose settings a share would take. */
export async function shareOfFile(
  fileId: string,
  signal?: AbortSignal,
): Promise<{ share: ShareView | null; parent: ShareView | null }> {
  const envelope = await callEndpointEnvelope(shareApi.byFile, { query: { fileId } }, { signal });
  const parent = (envelope.props?.parent as ShareView | null | undefined) ?? null;
  return { share: envelope.data ?? null, parent };
}

export const folderHasShares = (fileId: string, signal?: AbortSignal) =>
  callEndpoint(shareApi.folderHasShares, { query: { fileId } }, { signal });

export const cancelShares = (shareIds: string[]) =>
  callEndpoint(shareApi.cancel, { query: { shareId: shareIds } });

export const listShares = (page: number, pageSize: number, signal?: AbortSignal) =>
  callEndpointPage(shareApi.list, { query: { pageIndex: page, pageSize } }, { signal });

/** A token of one's own share (or a mounted one), for links to private shares' files. */
export const ownShareToken = (fileId: string) =>
  callEndpoint(shareApi.token, { query: { fileId } });

// ---- visitors -----------------------------------------------------------------------------

export interface ShareListing {
  items: PublicFileView[];
  total: number;
  facts: ShareFacts;
}

/** The share's root: its items, or only its public facts while the code is needed. */
export async function accessShare(
  share: string,
  params: { pageIndex: number; pageSize: number },
  signal?: AbortSignal,
): Promise<ShareListing> {
  selectShare(share);
  const envelope = await callEndpointEnvelope(
    shareVisitorApi.access,
    { query: { share, ...params } },
    { signal, silent: true },
  );
  const facts = envelope.props?.share as ShareFacts;
  const items = Array.isArray(envelope.data) ? envelope.data : [];
  return { items, total: envelope.count ?? items.length, facts };
}

/** A folder inside the share, by its path relative to the shared folder (`/a/b`). */
export async function openSharedFolder(
  share: string,
  path: string,
  params: { pageIndex: number; pageSize: number },
  signal?: AbortSignal,
): Promise<{ items: PublicFileView[]; total: number; folder: PublicFileView }> {
  selectShare(share);
  const envelope = await callEndpointEnvelope(
    shareVisitorApi.openFolder,
    { query: { share, path, ...params } },
    { signal, silent: true },
  );
  const items = Array.isArray(envelope.data) ? envelope.data : [];
  return {
    items,
    total: envelope.count ?? items.length,
    folder: envelope.props?.folder as PublicFileView,
  };
}

export const SHARE_PAGE_SIZE = 50;

/** One page of a folder of a share ('/' is the shared folder, answered with the share's facts). */
export const shareFolderQuery = (share: string, path: string, page: number) => ({
  queryKey: shareKeys.folder(share, path, page),
  queryFn: ({ signal }: { signal?: AbortSignal }): Promise<ShareListing> =>
    path === '/'
      ? accessShare(share, { pageIndex: page, pageSize: SHARE_PAGE_SIZE }, signal)
      : openSharedFolder(share, path, { pageIndex: page, pageSize: SHARE_PAGE_SIZE }, signal).then(
          (result) => ({ ...result, facts: undefined as unknown as ShareFacts }),
        ),
});

/** How long the share's first page, fetched for its facts, also serves the listing. */
const ROOT_PAGE_REUSE_MS = 10_000;

/**
 * A folder of a share page after page, as the visitor scrolls. The root's first page is the
 * one the share page already fetched for the share's facts.
 */
export const shareFolderPagesQuery = (queryClient: QueryClient, share: string, path: string) =>
  infiniteQueryOptions({
    queryKey: shareKeys.folderPages(share, path),
    queryFn: ({ pageParam, signal }): Promise<ShareListing> =>
      pageParam === 1 && path === '/'
        ? queryClient.fetchQuery({
            ...shareFolderQuery(share, path, pageParam),
            staleTime: ROOT_PAGE_REUSE_MS,
          })
        : shareFolderQuery(share, path, pageParam).queryFn({ signal }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => {
      const loaded = pages.reduce((sum, page) => sum + page.items.length, 0);
      return last.items.length > 0 && loaded < last.total ? pages.length + 1 : undefined;
    },
  });

export const fetchSharer = (share: string, signal?: AbortSignal) =>
  callEndpoint(shareVisitorApi.sharer, { query: { shareId: share } }, { signal, silent: true });

/** POST public/valid-share-code: the token for the right code. */
export const validShareCode = (shareId: string, shareCode: string) =>
  callEndpoint(shareVisitorApi.validCode, { body: { shareId, shareCode } }, { silent: true });

export function previewSharedText(shareId: string, fileId: string, signal?: AbortSignal) {
  selectShare(shareId);
  return callEndpoint(
    shareVisitorApi.previewText,
    { query: { shareId, fileId } },
    { signal, silent: true },
  );
}

export function newSharedFolder(shareId: string, currentDirectory: string, filename: string) {
  selectShare(shareId);
  return callEndpoint(shareVisitorApi.newFolder, {
    query: { shareId, currentDirectory, filename },
  });
}

export function renameShared(shareId: string, fileId: string, newFileName: string) {
  selectShare(shareId);
  return callEndpoint(shareVisitorApi.rename, { query: { shareId, fileId, newFileName } });
}

/** Whether names exist in a folder of the share, and whether this share may replace them. */
export async function checkShareNames(
  shareId: string,
  currentDirectory: string,
  filenames: string[],
): Promise<{ exist: boolean; replace: boolean }> {
  selectShare(shareId);
  const found = await callEndpoint(shareVisitorApi.checkExist, {
    body: { filenames, currentDirectory },
  });
  return { exist: Boolean(found.exist), replace: Boolean(found.replace) };
}

export function deleteShared(shareId: string, fileIds: string[]) {
  selectShare(shareId);
  return callEndpoint(shareVisitorApi.remove, { query: { shareId, fileIds } });
}

// ---- mounts ---------------------------------------------------------------------------------

export function mountShare(shareId: string, fileId: string, name?: string) {
  selectShare(shareId);
  return callEndpoint(shareApi.mount, {
    body: { shareId, fileId, ...(name ? { name } : {}) },
  });
}

export const listMounts = (signal?: AbortSignal) => callEndpoint(shareApi.mounts, {}, { signal });

// ---- changes, each with what it makes stale ---------------------------------------------------

/** Creates a share, or saves a share's settings; the file's own share shows the answer at once. */
export function useSaveShare() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: generateShare,
    onSuccess: (saved, body) => {
      client.setQueryData<Awaited<ReturnType<typeof shareOfFile>>>(
        shareKeys.byFile(body.fileId),
        (known) => ({ share: saved, parent: known?.parent ?? null }),
      );
      return client.invalidateQueries({ queryKey: shareKeys.all });
    },
  });
}

/** Ends shares: the list, the files' share dialogs and the visitors' pages ask again. */
export function useCancelShares() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: cancelShares,
    onSuccess: () => client.invalidateQueries({ queryKey: shareKeys.all }),
  });
}

/** Places a shared folder in one's drive, where the folder it went into then lists it. */
export function useMountShare(share: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { shareId: string; folderId: string; name?: string }) =>
      mountShare(input.shareId, input.folderId, input.name),
    onSuccess: (mounted) => {
      void client.invalidateQueries({ queryKey: shareKeys.mounts });
      void client.invalidateQueries({ queryKey: fileKeys.listsOf('home', mounted.path) });
      return client.invalidateQueries({ queryKey: shareKeys.visit(share) });
    },
  });
}

/** Takes a placed folder out of the drive (the share itself stays). */
export function useRemoveMount() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (mount: Pick<MountView, 'mountId' | 'path'>) => removeMount(mount.mountId),
    onSuccess: (_, mount) => {
      void client.invalidateQueries({ queryKey: fileKeys.listsOf('home', mount.path) });
      return client.invalidateQueries({ queryKey: shareKeys.mounts });
    },
  });
}
