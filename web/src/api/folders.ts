import { filesApi, type FileItem } from '@nimbus/contract';
import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { authKeys } from './account';
import { callEndpoint, callEndpointPage } from './endpoints';
import { fileKeys } from './file-keys';

/**
 * The drive's folders as features other than the file browser read and change them (the
 * editors' folder tree, the archive viewer): each change asks again the listings it makes stale,
 * so the file browser shows it whichever feature made it.
 */

/** The first `pageSize` items of one of the drive's folders (`/` or `/a/b/`), by name. */
export const fetchFolderItems = (folder: string, pageSize: number, signal?: AbortSignal) =>
  callEndpointPage(
    filesApi.list,
    {
      query: {
        currentDirectory: folder,
        sortableProp: 'name',
        order: 'ascending',
        pageIndex: 1,
        pageSize,
      },
    },
    { signal },
  );

/** An empty document in a folder. */
export const addFile = (parentPath: string, fileName: string) =>
  callEndpoint(filesApi.addFile, { query: { parentPath, fileName } }, { silent: true });

/** The drive's listings of the folder an item is in: asked again. */
const refreshFolderOf = (queryClient: QueryClient, item: Pick<FileItem, 'path'>) =>
  queryClient.invalidateQueries({ queryKey: fileKeys.listsOf('home', item.path) });

/** An empty document made in a folder; the folder's listings show it. */
export function useAddFile() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ folder, name }: { folder: string; name: string }) => addFile(folder, name),
    onSuccess: (made) => {
      if (made?.id) void refreshFolderOf(queryClient, made);
    },
  });
}

/** An archive extracted into a new folder beside it (a large one takes minutes). */
export const extractArchive = (fileId: string) =>
  callEndpoint(filesApi.unzip, { query: { fileId } }, { timeoutMs: 10 * 60_000 });

/**
 * Extracts an archive. `place` puts the new folder into the listings on screen itself (the
 * file browser, where each listing's sort wants it); without it the listings of its folder are
 * asked again. The space used changes either way.
 */
export function useExtractArchive(place?: (queryClient: QueryClient, folder: FileItem) => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (fileId: string) => extractArchive(fileId),
    onSuccess: (folder) => {
      if (folder?.id) {
        if (place) place(queryClient, folder);
        else void refreshFolderOf(queryClient, folder);
      }
      void queryClient.invalidateQueries({ queryKey: authKeys.userInfo });
    },
  });
}
