import { App } from 'antd';
import { useTranslation } from 'react-i18next';

/** Asks before deleting; the danger button is `confirm-delete`, `onOk` runs the deletion. */
export function useConfirmDelete(): (ask: {
  title: string;
  content: string;
  onOk: () => Promise<void>;
}) => void {
  const { t } = useTranslation('system');
  const { modal } = App.useApp();
  return ({ title, content, onOk }) => {
    modal.confirm({
      title,
      content,
      okText: t('actions.delete'),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' },
      cancelText: t('actions.cancel'),
      onOk,
    });
  };
}
