/**
 * The file inputs live once, in the global uploader; buttons anywhere open them through here.
 */
export interface Pickers {
  files: () => void;
  folder: () => void;
  /** Choose one file again for a remembered upload. */
  again: (itemId: string) => void;
}

let current: Pickers | null = null;

export function registerPickers(pickers: Pickers | null): void {
  current = pickers;
}

export function pickFiles(): void {
  current?.files();
}

export function pickFolder(): void {
  current?.folder();
}

export function pickAgain(itemId: string): void {
  current?.again(itemId);
}
