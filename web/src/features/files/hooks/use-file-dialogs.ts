import { App } from 'antd';
import { useCallback, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useFilePreview } from '../../../actions/viewers';
import type { MenuRequest } from '../components/ActionMenu';
import type { MoveCopyRequest } from '../components/MoveCopyDialog';
import type { NameDialogRequest } from '../../../components/file-browser/NameDialog';

export interface ConfirmOptions {
  title: string;
  content: string;
  okText: string;
  danger?: boolean;
}

/**
 * What the file browser has open over the listing: the context menu, the details drawer, the
 * name and move dialogs, the viewer of an opened file; and a confirmation that
 * resolves with the answer. A new folder or view closes the menu and the details.
 */
export function useFileDialogs(viewId: string) {
  const { t } = useTranslation('files');
  const { modal } = App.useApp();
  const [menu, setMenu] = useState<MenuRequest | null>(null);
  const [detailsOpen, setDetailsOpen] = useState(false);
  const [nameDialog, setNameDialog] = useState<NameDialogRequest | null>(null);
  const [moveRequest, setMoveRequest] = useState<MoveCopyRequest | null>(null);
  const preview = useFilePreview();

  const [shownView, setShownView] = useState(viewId);
  if (shownView !== viewId) {
    setShownView(viewId);
    setMenu(null);
    setDetailsOpen(false);
  }

  const confirm = useCallback(
    (options: ConfirmOptions) =>
      new Promise<boolean>((resolve) => {
        modal.confirm({
          title: options.title,
          content: options.content,
          okText: options.okText,
          cancelText: t('confirm.cancel'),
          okButtonProps: { danger: options.danger, 'data-testid': 'confirm-ok' },
          cancelButtonProps: { 'data-testid': 'confirm-cancel' },
          onOk: () => resolve(true),
          onCancel: () => resolve(false),
        });
      }),
    [modal, t],
  );

  return {
    menu,
    setMenu,
    detailsOpen,
    setDetailsOpen,
    nameDialog,
    setNameDialog,
    moveRequest,
    setMoveRequest,
    preview,
    confirm,
  };
}

export type FileDialogs = ReturnType<typeof useFileDialogs>;
