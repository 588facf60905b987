import { z } from 'zod';
import { endpoint } from './endpoint.ts';
import { publicOfficeQuery } from './office.ts';
import { archiveListing, publicArchiveQuery, publicPreviewQuery } from './preview.ts';
import {
  accessShareAnswer,
  publicBytesQuery,
  publicFileIdsQuery,
  publicFileList,
  publicFileView,
  publicListQuery,
  publicNewFolderQuery,
  publicOpenQuery,
  publicRenameQuery,
  publicShareQuery,
  publicTargetQuery,
  sharer,
  validShareCodeBody,
} from './share.ts';
import {
  checkExistAnswer,
  checkExistBody,
  chunkQuery,
  chunkResult,
  mergeQuery,
  publicChunkTest,
  publicMergeAnswer,
  uploadFolderQuery,
} from './upload.ts';

/** The name at the end of a byte address: for the browser's sake, never read. */
const fileName = z.string().max(4096);
/** `/public/s/download/{name}`: the item is in the query. */
const namedParams = z.object({ name: fileName });
/** `/share-file/{id}/{name}`: an item of a public share by its id. */
const sharedFileParams = z.object({ id: z.string().max(128), name: fileName });
/** `/share-file/{id}/{token}/{name}`: the token names the share (and opens a private one). */
const tokenFileParams = sharedFileParams.extend({ token: z.string().max(4096) });

/**
 * What visitors of a share may call without signing in (mounters reach the same through the
 * same gate): opening it, reading it and, as far as the share allows, changing it.
 */
export const shareVisitorApi = {
  /** The code of a private share: answers the token that opens it. */
  validCode: endpoint({
    method: 'POST',
    path: '/public/valid-share-code',
    body: validShareCodeBody,
    answer: z.string(),
    access: 'public',
  }),
  /**
   * The share's top listing; a private share not yet open answers its public facts instead.
   * `props.share` carries the facts either way.
   */
  access: endpoint({
    method: 'GET',
    path: '/public/access-share',
    query: publicListQuery,
    answer: accessShareAnswer,
    access: 'public',
  }),
  /** A folder inside a shared folder; `props.folder` is the folder itself. */
  openFolder: endpoint({
    method: 'GET',
    path: '/public/access-share/open',
    query: publicOpenQuery,
    answer: publicFileList,
    access: 'public',
  }),
  /** Who shared it: the name and picture the share page shows. */
  sharer: endpoint({
    method: 'GET',
    path: '/public/get/sharer',
    query: publicShareQuery,
    answer: sharer,
    access: 'public',
  }),
  /** One item of the share. */
  fileInfo: endpoint({
    method: 'GET',
    path: '/public/file_info',
    query: publicTargetQuery,
    answer: publicFileView,
    access: 'public',
  }),
  /** An item of the share about to be previewed as text (its facts, checked readable). */
  previewText: endpoint({
    method: 'GET',
    path: '/public/s/preview/text',
    query: publicTargetQuery,
    answer: publicFileView,
    access: 'public',
  }),
  /** An item of the share about to be previewed as text, all its bytes as UTF-8 text. */
  previewTextStream: endpoint({
    method: 'GET',
    path: '/public/s/preview/text/stream',
    query: publicPreviewQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** What an archive of the share holds, read without extracting it. */
  previewArchive: endpoint({
    method: 'GET',
    path: '/public/s/preview/archive',
    query: publicArchiveQuery,
    answer: archiveListing,
    access: 'public',
  }),
  /** An office file of the share as the PDF it is viewed as. */
  previewOffice: endpoint({
    method: 'GET',
    path: '/public/s/preview/office',
    query: publicOfficeQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** Several items of the share as one zip. */
  zip: endpoint({
    method: 'GET',
    path: '/public/s/packageDownload',
    query: publicFileIdsQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** An item's bytes to view (`o=download` to download them). */
  preview: endpoint({
    method: 'GET',
    path: '/public/s/preview/:name',
    params: namedParams,
    query: publicBytesQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** An item's bytes as a download. */
  download: endpoint({
    method: 'GET',
    path: '/public/s/download/:name',
    params: namedParams,
    query: publicBytesQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** An item of a public share by its id (the share by `shareId` in the query). */
  fileById: endpoint({
    method: 'GET',
    path: '/share-file/:id/:name',
    params: sharedFileParams,
    query: publicBytesQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** An item by its id, of the share the token names: the address an editor or a player gets. */
  fileByToken: endpoint({
    method: 'GET',
    path: '/share-file/:id/:token/:name',
    params: tokenFileParams,
    query: publicBytesQuery,
    answer: 'bytes',
    access: 'public',
  }),
  /** Which of these names a folder of the share already holds (before an upload). */
  checkExist: endpoint({
    method: 'POST',
    path: '/public/checkExist',
    body: checkExistBody,
    answer: checkExistAnswer,
    access: 'public',
  }),
  /** Whether a chunk (or the whole file, by its hash) is already there. */
  testChunk: endpoint({
    method: 'GET',
    path: '/public/upload',
    query: chunkQuery,
    answer: publicChunkTest,
    access: 'public',
  }),
  /** One chunk of an upload into the share, as a multipart form. */
  writeChunk: endpoint({
    method: 'POST',
    path: '/public/upload',
    answer: chunkResult,
    access: 'public',
    multipart: true,
  }),
  /** The chunks of an upload joined into the file. */
  merge: endpoint({
    method: 'POST',
    path: '/public/merge',
    query: mergeQuery,
    answer: publicMergeAnswer,
    access: 'public',
  }),
  /** The folders of an uploaded folder, made before its files arrive. */
  uploadFolder: endpoint({
    method: 'POST',
    path: '/public/upload-folder',
    query: uploadFolderQuery,
    answer: publicFileView.optional(),
    access: 'public',
  }),
  /** A new folder in the share. */
  newFolder: endpoint({
    method: 'POST',
    path: '/public/new_folder',
    query: publicNewFolderQuery,
    answer: publicFileView.optional(),
    access: 'public',
  }),
  /** A new name for an item of the share. */
  rename: endpoint({
    method: 'GET',
    path: '/public/rename',
    query: publicRenameQuery,
    answer: publicFileView.optional(),
    access: 'public',
    changes: true,
  }),
  /** Items of the share to the sharer's trash. */
  remove: endpoint({
    method: 'DELETE',
    path: '/public/delete',
    query: publicFileIdsQuery,
    answer: null,
    access: 'public',
  }),
};
