import type { FileItem } from '@nimbus/contract';
import { createContext, useContext, type ComponentType } from 'react';

/** A section of the details drawer that another feature draws (photo facts, media facts, tags). */
export interface DetailsSection {
  id: string;
  /** Shown for a mount too (a mount takes no tags). */
  onMounts: boolean;
  Section: ComponentType<{ file: FileItem }>;
}

/**
 * What the file browser shows of other features, assembled in app/ (app/file-parts.ts) and
 * handed down through FilePartsContext: the browser imports no other feature.
 */
export interface FileParts {
  /** The details drawer's sections after the file's own facts, in order. */
  detailsSections: readonly DetailsSection[];
  /** The toolbar's upload button. */
  UploadButton: ComponentType;
  /** The name of the tag a tag view lists; undefined for another view or until the tags are here. */
  useTagName: (tagId: string | null) => string | undefined;
}

export const FilePartsContext = createContext<FileParts | null>(null);

/** The parts app/ provides around the drive's pages. */
export function useFileParts(): FileParts {
  const parts = useContext(FilePartsContext);
  if (!parts) throw new Error('the file browser parts are provided by app/ (app/Registries.tsx)');
  return parts;
}
