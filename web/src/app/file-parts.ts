import type { FileParts } from '../actions/file-parts';
import { ImageDetailsSection } from '../features/images/components/ImageDetailsSection';
import { MediaDetailsSection } from '../features/media/components/MediaDetailsSection';
import { useTags } from '../features/tags/api';
import { FileTagsSection } from '../features/tags/components/FileTagsSection';
import { UploadButton } from '../features/upload/components/UploadButton';

/** The tag view's title: the tag's name, once the user's tags are here. */
function useTagName(tagId: string | null): string | undefined {
  const { data: tags } = useTags();
  if (!tagId) return undefined;
  return tags?.find((item) => (item.tagId ?? item.id) === tagId)?.name;
}

/** What the file browser shows of the other features (actions/file-parts.ts). */
export const FILE_PARTS: FileParts = {
  detailsSections: [
    { id: 'image', onMounts: true, Section: ImageDetailsSection },
    { id: 'media', onMounts: true, Section: MediaDetailsSection },
    { id: 'tags', onMounts: false, Section: FileTagsSection },
  ],
  UploadButton,
  useTagName,
};
