import type { ReactNode } from 'react';
import { FileActionsContext } from '../actions/file-registry';
import { FilePreviewContext } from '../actions/viewers';
import { FILE_ACTION_REGISTRY } from './action-registry';
import { usePreviewOfAll } from './viewer-registry';

/** The registries the features read through context: the actions on files and the viewers. */
export function Registries({ children }: { children: ReactNode }) {
  return (
    <FileActionsContext.Provider value={FILE_ACTION_REGISTRY}>
      <FilePreviewContext.Provider value={usePreviewOfAll}>{children}</FilePreviewContext.Provider>
    </FileActionsContext.Provider>
  );
}
