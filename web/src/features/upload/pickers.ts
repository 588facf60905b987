/**
 * The file inputs live once, in the global uploader; buttons anywhere open them through here.
 */
export interface Pickers {
  /** Opens the chooser; `target` sends the files to that folder instead of the current one. */
  files: (target?: string) => void;
  folder: (target?: string) => void;
  /** Choose one file again for a remembered upload. */
  again: (itemId: string) => void;
}

let current: Pickers | null = null;

export function registerPickers(pickers: Pickers | null): void {
  current = pickers;
}

export function pickFiles(target?: string): void {
  current?.files(target);
}

export function pickFolder(target?: string): void {
  current?.folder(target);
}

export function pickAgain(itemId: string): void {
  current?.again(itemId);
}
