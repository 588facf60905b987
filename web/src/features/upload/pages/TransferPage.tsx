import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';

/** /upload/index_m: the mobile file-transfer list. */
export function TransferPage() {
  const { t } = useTranslation('files');
  return (
    <section className="nb-files" data-testid="transfer-page">
      <div className="nb-files__toolbar">
        <div className="nb-files__crumb">
          <strong>{t('views.fileTransfer')}</strong>
        </div>
      </div>
      <div className="nb-files__body">
        <EmptyState
          icon={<CloudUploadOutlined />}
          title={t('empty.transfer.title')}
          description={t('empty.transfer.description')}
        />
      </div>
    </section>
  );
}
