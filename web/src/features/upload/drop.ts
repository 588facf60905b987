import { cleanRelativePath } from './paths';
import type { PickedFile } from './types';

/** The parts of the File and Directory Entries API a drop hands over. */
interface Entry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  fullPath: string;
}
interface FileEntry extends Entry {
  file(success: (file: File) => void, failure?: (error: unknown) => void): void;
}
interface DirectoryEntry extends Entry {
  createReader(): {
    readEntries(success: (entries: Entry[]) => void, failure?: (error: unknown) => void): void;
  };
}

export interface DroppedFiles {
  files: PickedFile[];
  emptyFolders: string[];
}

/** Whether a drag carries files from outside the page (not rows dragged inside the app). */
export function hasFiles(dataTransfer: DataTransfer | null): boolean {
  return Boolean(dataTransfer && Array.from(dataTransfer.types ?? []).includes('Files'));
}

function readFile(entry: FileEntry): Promise<File> {
  return new Promise((resolve, reject) => entry.file(resolve, reject));
}

async function readChildren(entry: DirectoryEntry): Promise<Entry[]> {
  const reader = entry.createReader();
  const all: Entry[] = [];
  // readEntries answers in batches (about 100 in Chromium) until an empty one
  for (;;) {
    const batch = await new Promise<Entry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (!batch.length) return all;
    all.push(...batch);
  }
}

async function walk(entry: Entry, out: DroppedFiles): Promise<void> {
  const path = cleanRelativePath(entry.fullPath || entry.name, entry.name);
  try {
    if (entry.isFile) {
      out.files.push({ file: await readFile(entry as FileEntry), relativePath: path });
    } else if (entry.isDirectory) {
      const children = await readChildren(entry as DirectoryEntry);
      if (!children.length) out.emptyFolders.push(path);
      for (const child of children) await walk(child, out);
    }
  } catch (error) {
    // spec §8: 'Failed to add files' is logged; the rest of the drop goes on
    console.error('Failed to add files', path, error);
  }
}

/**
 * Files and folders of a drop, folders walked recursively. The entries are taken at once:
 * a DataTransfer is emptied when the drop handler returns.
 */
export function readDrop(dataTransfer: DataTransfer): Promise<DroppedFiles> {
  const out: DroppedFiles = { files: [], emptyFolders: [] };
  const entries: Entry[] = [];
  const items = Array.from(dataTransfer.items ?? []).filter((item) => item.kind === 'file');
  if (items.length) {
    for (const item of items) {
      const entry = (item.webkitGetAsEntry?.() ?? null) as Entry | null;
      if (entry) {
        entries.push(entry);
        continue;
      }
      const file = item.getAsFile();
      if (file) out.files.push({ file, relativePath: file.name });
    }
  } else {
    for (const file of Array.from(dataTransfer.files ?? [])) {
      out.files.push({ file, relativePath: file.name });
    }
  }
  return (async () => {
    for (const entry of entries) await walk(entry, out);
    return out;
  })();
}
