import type { ReactNode } from 'react';
import { FilePartsContext } from '../actions/file-parts';
import { FileActionsContext } from '../actions/file-registry';
import { FilePreviewContext } from '../actions/viewers';
import { FILE_ACTION_REGISTRY } from './action-registry';
import { FILE_PARTS } from './file-parts';
import { usePreviewOfAll } from './viewer-registry';

/**
 * The registries the features read through context: the actions on files, the viewers and the
 * file browser's parts from other features.
 */
export function Registries({ children }: { children: ReactNode }) {
  return (
    <FileActionsContext.Provider value={FILE_ACTION_REGISTRY}>
      <FilePreviewContext.Provider value={usePreviewOfAll}>
        <FilePartsContext.Provider value={FILE_PARTS}>{children}</FilePartsContext.Provider>
      </FilePreviewContext.Provider>
    </FileActionsContext.Provider>
  );
}
