import { can, DOWNLOAD_AUTHORITY, type Actor } from '../../lib/access.ts';
import { forbidden, type AppError } from '../../lib/errors.ts';
import { shareErrors, type OpenedVia } from '../share/share-access.ts';

/**
 * What a reader may receive of a file's bytes (docs/ARCHITECTURE.md, "What each file authority
 * allows"). A download is the bytes to keep: an attachment, a zip, a WebDAV GET, an earlier
 * version and the list of versions. A preview is what the app's viewers show inline: media
 * whole, text from its beginning, renditions the server makes (thumbnails, video, an office
 * document's PDF). Whoever may open a file may preview it; a download needs `download`.
 */
export interface BytesGrant {
  download: boolean;
  /** The refusal of a download, when `download` is false. */
  refuseDownload: () => AppError;
  /** The refusal of anything a preview does not show, when `download` is false. */
  refusePreview: () => AppError;
}

/** The share a file is read through: how it is held open, what it allows, its owner's grants. */
export interface ShareForBytes {
  via: OpenedVia;
  settings: { allowDownload: boolean };
  /** The owner holds the download authority: a share gives no more than its owner has. */
  ownerMayDownload: boolean;
}

const roleRefusal: Omit<BytesGrant, 'download'> = {
  refuseDownload: () => forbidden('Your role does not allow downloads'),
  refusePreview: () =>
    forbidden('Your role does not allow downloads, and this file cannot be previewed'),
};

const shareRefusal: Omit<BytesGrant, 'download'> = {
  refuseDownload: () => shareErrors.notAllowed('download'),
  refusePreview: () => shareErrors.previewOnly(),
};

/**
 * The one decision of every route that sends a file's bytes or its versions: a download needs
 * the share to allow downloads and its owner to hold the authority (when read through a share),
 * and the signed-in person acting on the file (its owner, or a mounter) to hold it. A visitor of
 * a share link is no such person: the link gives the same to anyone who has it.
 */
export function bytesGrant(actor: Actor | null, share: ShareForBytes | null): BytesGrant {
  if (share && !(share.settings.allowDownload && share.ownerMayDownload))
    return { download: false, ...shareRefusal };
  const acting = share === null || share.via === 'mount' ? actor : null;
  if (acting && !can(acting, DOWNLOAD_AUTHORITY)) return { download: false, ...roleRefusal };
  return { download: true, ...roleRefusal };
}

/** Refuse unless the grant allows a download. */
export function requireDownload(grant: BytesGrant): void {
  if (!grant.download) throw grant.refuseDownload();
}

/** What `sendFileBytes` takes: without downloads, only previews, refused with this otherwise. */
export function previewOnlyOf(grant: BytesGrant): (() => AppError) | undefined {
  return grant.download ? undefined : grant.refusePreview;
}
