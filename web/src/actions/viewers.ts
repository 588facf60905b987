import type { Endpoint, FileItem, QueryIn } from '@nimbus/contract';
import { createContext, useContext, type ComponentType, type ReactNode } from 'react';
import type { IframeRule } from '../lib/iframe-rules';

/**
 * What a viewer needs of a file: the drive's items and a share visitor's items both have it,
 * so one viewer serves the drive, the mount browser and the share page.
 */
export type PreviewItem = Pick<
  FileItem,
  'id' | 'name' | 'path' | 'isFolder' | 'size' | 'contentType' | 'suffix' | 'type' | 'updateDate'
> & {
  /** The content hash when the listing has it: a cache key that changes with the bytes. */
  hash?: string | null;
  /** The owner's id when the listing has it (the drive's items; not a visitor's). */
  userId?: string;
};

/** A GET route of the API as an owner reaches it and as a share's visitors reach it. */
export interface EndpointTwins<Owner extends Endpoint = Endpoint> {
  owner: Owner;
  visitor: Endpoint;
}

/**
 * The address of a route as the page reaches it: by its definitions (the owner's, which a share's
 * page turns into its visitors' twin, the share's credentials in the query).
 */
export interface ApiAddress {
  <Owner extends Endpoint>(route: EndpointTwins<Owner>, query: QueryIn<Owner>): string;
}

/** What every source of files answers: the addresses a viewer reads, credentials included. */
interface SourceAddresses {
  /** The bytes of a file, inline (HTTP Range works: players seek, text previews read a head). */
  bytesUrl: (item: PreviewItem) => string;
  /** The bytes as a download; null when this visitor may not download. */
  downloadUrl: (item: PreviewItem) => string | null;
  /**
   * The address of a GET route of the API, with the credentials a plain link, `<img>`, `<video>`
   * or iframe needs. Name the route by its definitions, the owner's and its visitors' twin:
   * `api({ owner: imagesApi.thumbnail, visitor: imagesVisitorApi.thumbnail }, { id })`; a share
   * visitor reaches the twin (`/api/public/s/view/thumbnail?id=…&shareId=…&share-token=…`).
   */
  api: ApiAddress;
  /** The headers of a `fetch()` made for this source (session token, share id and token). */
  headers: () => Record<string, string>;
}

/**
 * Where the files on screen come from. The owner (and a mounter, whose mounts are read by id
 * with their own session) reads the owner's routes; a share visitor reads the public twins,
 * which some viewers address from their own definitions (HLS:
 * `/public/video/hls/{shareId}/{shareToken}/…`, the token in the path).
 */
export type PreviewSource = SourceAddresses &
  (
    | { kind: 'owner' }
    | {
        kind: 'share';
        shareId: string;
        /** The token a private share's code earned; '' for a public share. */
        shareToken: string;
      }
  );

/**
 * The dispatch order of a click on a file (API-NOTES §3 "Opening a file"): the first stage
 * with a viewer that accepts the file opens it; within a stage, the first registered wins.
 */
export const PREVIEW_STAGES = [
  /** the editors (markdown, mind maps, text and code), for an owner who may write */
  'editor',
  /** the admin's iframe viewers by suffix (Preview Config; built-ins pdf and epub) */
  'iframe',
  'image',
  /** source code and known text suffixes, highlighted */
  'code',
  'video',
  /** added to the floating player's playlist */
  'audio',
  'archive',
  /** office files and the other documents of the full-screen previewer */
  'document',
  /** any other file whose head decodes as text */
  'text',
] as const;
export type PreviewStage = (typeof PREVIEW_STAGES)[number];

export type { IframeRule };

/** What a viewer may consult to decide whether it opens a file. */
export interface DispatchContext {
  source: PreviewSource;
  /** The Preview Config of the signed-in user's drive (user info `iframe`), parsed. */
  iframe: readonly IframeRule[];
  /** Whether the signed-in user's role holds an authority (an editor needs the right to write). */
  can: (authority: string) => boolean;
}

/** What an open viewer is given. */
export interface ViewerProps {
  item: PreviewItem;
  /** The files of the listing, in its order: a gallery or playlist steps through those it accepts. */
  siblings: readonly PreviewItem[];
  source: PreviewSource;
  /** The Preview Config the dispatch read. */
  iframe: readonly IframeRule[];
  /** Show another file in the same viewer (next / previous). */
  onSelect: (item: PreviewItem) => void;
  onClose: () => void;
}

interface ViewerBase {
  /** Unique, stable: 'text', 'image', 'pdf', 'audio'… */
  id: string;
  stage: PreviewStage;
  accepts: (item: PreviewItem, context: DispatchContext) => boolean;
}

/**
 * A way to open a file. Either it shows a view over the page (load its code lazily:
 * `lazy(() => import('./TheViewer'))`; the host wraps it in Suspense), or it acts and shows
 * nothing of its own (the audio player adds the file to its playlist).
 */
export type Viewer = ViewerBase &
  (
    | { view: ComponentType<ViewerProps>; run?: never }
    | {
        run: (item: PreviewItem, siblings: readonly PreviewItem[], source: PreviewSource) => void;
        view?: never;
      }
  );

/** The viewer that opens a file, following the stages; null: "cannot preview — download?". */
export function viewerFor(
  viewers: readonly Viewer[],
  item: PreviewItem,
  context: DispatchContext,
): Viewer | null {
  if (item.isFolder) return null;
  for (const stage of PREVIEW_STAGES)
    for (const viewer of viewers)
      if (viewer.stage === stage && viewer.accepts(item, context)) return viewer;
  return null;
}

export interface Preview {
  /** Opens a file as a click does (API-NOTES §3): the first viewer that takes it, else "download?". */
  open: (item: PreviewItem, siblings: readonly PreviewItem[], source: PreviewSource) => void;
  /** The viewer on screen, if any: render it once, anywhere in the page. */
  element: ReactNode;
  /** The id of the viewer showing a file, or null. */
  openViewer: string | null;
}

/**
 * The viewer registry (ARCHITECTURE §6): app/viewer-registry.ts assembles every feature's
 * viewers and provides, through this context, the hook that opens files with them.
 */
export const FilePreviewContext = createContext<(() => Preview) | null>(null);

/** Opening files with every viewer: the drive, the mount browser and the share page use it. */
export function useFilePreview(): Preview {
  const usePreviewOfAll = useContext(FilePreviewContext);
  if (!usePreviewOfAll) throw new Error('the viewers are provided by app/ (app/Registries.tsx)');
  return usePreviewOfAll();
}
