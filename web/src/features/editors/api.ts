import {
  ErrorCode,
  markdownApi,
  type ChangedMeanwhile,
  type MarkdownImage,
  type SavedContent,
} from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { ApiError } from '../../api/client';
import { callEndpoint, callEndpointForm } from '../../api/endpoints';

export const editorKeys = {
  document: (fileId: string) => ['editors', 'document', fileId] as const,
};

/** A document's text and the version it is at; read once per opening (no refetch on focus). */
export function useDocument(fileId: string) {
  return useQuery({
    queryKey: editorKeys.document(fileId),
    queryFn: () => callEndpoint(markdownApi.document, { query: { fileId } }),
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
  });
}

/** What a save met: saved (the new baseline), or someone else's version in the way. */
export type SaveOutcome =
  { kind: 'saved'; saved: SavedContent } | { kind: 'changed'; current: ChangedMeanwhile };

/** Save `contentText` over the file, from the version `baseHash`; `force` saves over anything. */
export async function saveDocument(input: {
  fileId: string;
  contentText: string;
  baseHash: string | null;
  force?: boolean;
}): Promise<SaveOutcome> {
  try {
    const saved = await callEndpoint(
      markdownApi.save,
      { body: input },
      { silent: true, timeoutMs: 120_000 },
    );
    return { kind: 'saved', saved };
  } catch (error) {
    if (error instanceof ApiError && error.code === ErrorCode.CHANGED_MEANWHILE)
      return { kind: 'changed', current: error.envelope?.data as ChangedMeanwhile };
    throw error;
  }
}

/** Keep the editor's text as this person's draft of the file (nothing shown on failure). */
export async function saveDraft(input: {
  fileId: string;
  contentText: string;
  baseHash: string | null;
}): Promise<void> {
  await callEndpoint(markdownApi.save, { body: { ...input, draft: true } }, { silent: true });
}

export const discardDraft = (fileId: string) =>
  callEndpoint(markdownApi.dropDraft, { query: { fileId } }, { silent: true });

/** A new document beside the one open, holding `contentText` ("save as a copy"). */
export function saveCopy(input: {
  filename: string;
  currentDirectory: string;
  contentText: string;
}): Promise<SavedContent> {
  return callEndpoint(markdownApi.save, { body: input });
}

/** An image of the document `fileId` uploaded beside it; `onProgress` in percent. */
export async function uploadImage(
  fileId: string,
  file: File,
  onProgress: (percent: number) => void,
): Promise<MarkdownImage> {
  const form = new FormData();
  form.append('fileId', fileId);
  form.append('files', file, file.name);
  const [image] = await callEndpointForm(markdownApi.addImages, form, onProgress);
  if (!image) throw new Error('The image was not stored');
  return image;
}

/** An image from a web address, fetched by the server into the document's assets folder. */
export const importImage = (fileId: string, url: string) =>
  callEndpoint(
    markdownApi.importImage,
    { query: { fileId }, body: { url } },
    { silent: true, timeoutMs: 60_000 },
  );
