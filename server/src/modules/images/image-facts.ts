import { imageFacts, type ImageFacts } from '@nimbus/contract';
import type { BlobStore } from '../../storage/blob-store.ts';
import type { FileRow, FilesService } from '../files/files.service.ts';
import type { FoundImage } from './image-access.ts';
import { versionOf } from './image-cache-keys.ts';
import type { ImageWork } from './image-work.ts';
import {
  factsNeedDecoding,
  factsOf,
  isReadableImage,
  type ImageFile,
} from './programs/image-tools.ts';
import type { FilesRepo } from '../files/files.repo.ts';

/**
 * The size and EXIF of an image, read once per version of the file and kept in its `media`
 * column under `image` (with `imageOf`, the version they were read of).
 */
export class ImageFactsReader {
  constructor(
    private readonly files: FilesService,
    private readonly fileRows: FilesRepo,
    private readonly work: ImageWork,
  ) {}

  private get blobs(): BlobStore {
    return this.files.blobs;
  }

  /** An image's size and EXIF, read now when not yet recorded; null for no readable image. */
  async ofFile(found: FoundImage): Promise<ImageFacts | null> {
    const { row } = found;
    if (row.fileType !== 'image' || !isReadableImage(row.suffix)) return null;
    const recorded = this.recorded(row);
    if (recorded !== undefined) return recorded;
    await this.read(found);
    return this.recorded(await this.files.mustFind(found.owner.id, row.id)) ?? null;
  }

  /** The recorded facts of this version of the file; undefined when not yet read. */
  recorded(row: FileRow): ImageFacts | null | undefined {
    if (!row.media) return undefined;
    try {
      const media = JSON.parse(row.media) as { image?: unknown; imageOf?: unknown };
      if (media.imageOf !== versionOf(row)) return undefined;
      if (media.image === null) return null;
      const parsed = imageFacts.safeParse(media.image);
      return parsed.success ? parsed.data : undefined;
    } catch {
      return undefined;
    }
  }

  async read(found: FoundImage): Promise<void> {
    const { row } = found;
    // a header is read without decoding the picture: no image work to count
    if (!factsNeedDecoding(row.suffix)) {
      const local = await this.blobs.local(found.place);
      try {
        const image = { path: local.path, suffix: row.suffix };
        await this.record(row, image, '', AbortSignal.timeout(60_000));
      } finally {
        await local.release();
      }
      return;
    }
    await this.work.run(async (workDir, signal) => {
      const local = await this.blobs.local(found.place);
      try {
        await this.record(row, { path: local.path, suffix: row.suffix }, workDir, signal);
      } finally {
        await local.release();
      }
    });
  }

  /** Record the facts of this version of the file, unless they are. */
  async record(
    row: FileRow,
    image: ImageFile,
    workDir: string,
    signal: AbortSignal,
  ): Promise<void> {
    if (this.recorded(row) !== undefined) return;
    const facts = await factsOf(image, workDir, signal);
    await this.fileRows.setMediaKeys(row.userId, row.id, {
      image: facts,
      imageOf: versionOf(row),
    });
  }
}
