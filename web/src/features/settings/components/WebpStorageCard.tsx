import { App, Card, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSetWebpStorage, useWebpStorage } from '../webp-api';

/** General settings: whether new photos are kept as WebP (administrators). */
export function WebpStorageCard() {
  const { t } = useTranslation('images');
  const { message } = App.useApp();
  const setting = useWebpStorage();
  const save = useSetWebpStorage();
  return (
    <Card title={t('webp.title')} data-testid="webp-storage-card">
      <div style={{ display: 'flex', alignItems: 'center', gap: 12 }}>
        <Switch
          checked={setting.data?.enable ?? false}
          loading={setting.isPending || save.isPending}
          onChange={(enable) =>
            save.mutate(enable, {
              onSuccess: () => void message.success(t('webp.saved')),
            })
          }
          data-testid="webp-storage-switch"
          aria-label={t('webp.label')}
        />
        <span>{t('webp.label')}</span>
      </div>
      <Typography.Paragraph type="secondary" style={{ margin: '12px 0 0' }}>
        {t('webp.hint')}
      </Typography.Paragraph>
    </Card>
  );
}
