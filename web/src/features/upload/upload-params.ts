import type { CurrentFolder } from '../../stores/current-folder';

export class UploadParamsTimeout extends Error {
  constructor() {
    super('Timeout waiting for upload parameters');
    this.name = 'UploadParamsTimeout';
  }
}

/**
 * The upload parameters (spec §3): the folder uploads go to, as the file browser reports it.
 * A batch waits for a folder it may write to, at most `timeoutMs` (spec §5, §9: 3 s).
 */
export class UploadParams {
  private folder: CurrentFolder | null = null;
  private listeners = new Set<() => void>();

  set(folder: CurrentFolder | null): void {
    this.folder = folder;
    for (const listener of [...this.listeners]) listener();
  }

  private ready(): CurrentFolder | null {
    return this.folder?.writable ? this.folder : null;
  }

  wait(timeoutMs: number): Promise<CurrentFolder> {
    const now = this.ready();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.listeners.delete(check);
        reject(new UploadParamsTimeout());
      }, timeoutMs);
      const check = () => {
        const folder = this.ready();
        if (!folder) return;
        clearTimeout(timer);
        this.listeners.delete(check);
        resolve(folder);
      };
      this.listeners.add(check);
    });
  }
}
