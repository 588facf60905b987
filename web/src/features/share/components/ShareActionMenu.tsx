import { useTranslation } from 'react-i18next';
import { actionMenuItems, PointMenu } from '../../../actions/menu';
import { visibleShareActions, type ShareBrowserAction } from '../browser-actions';
import type { ShareMenuRequest } from '../hooks/use-share-handlers';

/** The share's right-click / long-press / "…" menu, opened at a point, like the drive's. */
export function ShareActionMenu({
  request,
  onClose,
}: {
  request: ShareMenuRequest | null;
  onClose: () => void;
}) {
  const { t } = useTranslation(['share', 'common']);
  const run = (action: ShareBrowserAction) => {
    onClose();
    action.run?.(request!.ctx);
  };
  const items = request
    ? actionMenuItems(visibleShareActions(request.entries, request.ctx), request.ctx, t, run)
    : [];
  return <PointMenu at={request} items={items} onClose={onClose} />;
}
