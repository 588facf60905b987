import type { Actor } from '../../lib/access.ts';
import type { Place } from '../../storage/blob-store.ts';
import { bytesGrant, previewOnlyOf } from '../files/bytes-grant.ts';
import type { FileRow, FilesService, Owner } from '../files/files.service.ts';
import type { ShareAccess, ShareCredentials, ShareTarget } from '../share/share-access.ts';
import type { ShareVisitorService } from '../share/share-visitor.service.ts';
import type { UsersService } from '../users/users.service.ts';
import { noThumbnail } from './image-work.ts';

/**
 * Who asks for a picture of a file: a signed-in user (their own file, or one of a share they
 * mounted), or a visitor of a share holding the file.
 */
export type ImageAccess =
  { actor: Actor; id: string } | { creds: ShareCredentials; target: ShareTarget };

/** A file and whose tree it is in, once access has been checked. */
export interface FoundImage {
  owner: Owner;
  row: FileRow;
  place: Place;
  previewOnly?: () => Error;
}

/** The one access check of every picture of a file: the files' own rules. */
export class ImageFinder {
  constructor(
    private readonly files: FilesService,
    private readonly shareAccess: ShareAccess,
    private readonly visitors: ShareVisitorService,
    private readonly users: UsersService,
  ) {}

  find(access: ImageAccess): Promise<FoundImage> {
    return 'actor' in access
      ? this.ownFile(access.actor, access.id)
      : this.sharedFile(access.creds, access.target);
  }

  private async ownFile(actor: Actor, id: string): Promise<FoundImage> {
    const { owner, row, open } = await this.shareAccess.fileForActor(actor, id);
    if (row.isFolder) throw noThumbnail();
    return {
      owner,
      row,
      place: this.files.placeOf(owner, row),
      previewOnly: previewOnlyOf(bytesGrant(actor, open)),
    };
  }

  private async sharedFile(creds: ShareCredentials, target: ShareTarget): Promise<FoundImage> {
    // a thumbnail is a preview: a share without downloads still shows it
    const bytes = await this.visitors.bytes(creds, target, { download: false, fresh: false });
    const account = await this.users.accountById(bytes.row.userId);
    if (!account) throw noThumbnail();
    return {
      owner: { id: account.id, username: account.username },
      row: bytes.row,
      place: bytes.place,
      previewOnly: bytes.previewOnly,
    };
  }
}
