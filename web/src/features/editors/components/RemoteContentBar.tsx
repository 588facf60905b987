import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The bar of a document view whose content from other sites is held back: one click loads it,
 * for this view.
 */
export function RemoteContentBar({ onLoad }: { onLoad: () => void }) {
  const { t } = useTranslation('editors');
  return (
    <Alert
      className="nb-editor__notice"
      type="info"
      showIcon
      data-testid="remote-content-held"
      title={t('remote.held')}
      action={
        <Button size="small" data-testid="remote-content-load" onClick={onLoad}>
          {t('remote.load')}
        </Button>
      }
    />
  );
}
