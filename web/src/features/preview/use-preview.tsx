import { Suspense, useCallback, useMemo, useState, type ReactNode } from 'react';
import { Spin } from 'antd';
import './preview.css';
import { authorityCheck } from '../../actions/authorities';
import { useUserInfo } from '../../api/account';
import { suffixOf } from '../../lib/file-kinds';
import { NoPreviewDialog } from './components/NoPreviewDialog';
import { parseIframeRules } from '../../lib/iframe-rules';
import {
  viewerFor,
  type DispatchContext,
  type Preview,
  type PreviewItem,
  type PreviewSource,
  type Viewer,
  type ViewerProps,
} from '../../actions/viewers';

type Shown =
  | {
      kind: 'view';
      viewer: Viewer;
      item: PreviewItem;
      siblings: readonly PreviewItem[];
      source: PreviewSource;
    }
  | { kind: 'none'; item: PreviewItem; source: PreviewSource };

/** The suffix a dispatch reads: the listing's, else the name's. */
export const previewSuffix = (item: PreviewItem) => suffixOf(item);

/** The open dispatch over a list of viewers, and the host of the one on screen. */
export function usePreview(viewers: readonly Viewer[]): Preview {
  const info = useUserInfo();
  const iframe = useMemo(() => parseIframeRules(info.data?.iframe), [info.data?.iframe]);
  const can = useMemo(() => authorityCheck(info.data?.authorities ?? []), [info.data?.authorities]);
  const [shown, setShown] = useState<Shown | null>(null);

  const open = useCallback(
    (item: PreviewItem, siblings: readonly PreviewItem[], source: PreviewSource) => {
      const context: DispatchContext = { source, iframe, can };
      const viewer = viewerFor(viewers, item, context);
      if (!viewer) setShown({ kind: 'none', item, source });
      else if (viewer.run) viewer.run(item, siblings, source);
      else setShown({ kind: 'view', viewer, item, siblings, source });
    },
    [viewers, iframe, can],
  );

  const close = useCallback(() => setShown(null), []);
  let element: ReactNode = null;
  if (shown?.kind === 'none')
    element = <NoPreviewDialog item={shown.item} source={shown.source} onClose={close} />;
  else if (shown?.kind === 'view' && shown.viewer.view) {
    const View = shown.viewer.view;
    const props: ViewerProps = {
      item: shown.item,
      siblings: shown.siblings,
      source: shown.source,
      iframe,
      onSelect: (next) => setShown({ ...shown, item: next }),
      onClose: close,
    };
    element = (
      <Suspense fallback={<Spin fullscreen />}>
        <View {...props} />
      </Suspense>
    );
  }
  return { open, element, openViewer: shown?.kind === 'view' ? shown.viewer.id : null };
}
