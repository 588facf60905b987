import type { ReactNode } from 'react';

/** What the frame shows of the features: app/ hands them in (app/DriveLayout.tsx). */
export interface LayoutParts {
  /** The search box of the top bar. */
  search: ReactNode;
  /** The button of the running tasks, in the top bar. */
  tasks: ReactNode;
  /** The tags under the sidebar's menu. */
  tags: ReactNode;
  /** What stands over every page: the uploader and the dialogs any page opens. */
  hosts: ReactNode;
  /** Signs out (the user menu's last entry). */
  onSignOut: () => void;
}
