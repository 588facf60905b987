import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { UploadActions } from '../components/UploadActions';
import { summaryData } from '../components/summary-data';
import { UploadList } from '../components/UploadList';
import { UploadSummaryText } from '../components/UploadSummaryText';
import { displayFolder, useUploadItems, useUploadSummary, useUploadTarget } from '../use-upload';

/** /upload/index_m: the file-transfer page, where the ball leads on phones (spec §2). */
export function TransferPage() {
  const { t } = useTranslation('upload');
  const { t: tr } = useTranslation('routes');
  const items = useUploadItems();
  const summary = useUploadSummary();
  const { target, path } = useUploadTarget();
  return (
    <section className="nb-files nb-transfer" data-testid="transfer-page" {...summaryData(summary)}>
      <div className="nb-files__toolbar nb-transfer__toolbar">
        <div className="nb-transfer__heading">
          <strong>{tr('fileTransfer')}</strong>
          <UploadSummaryText />
        </div>
        <span className="nb-transfer__target" data-testid="transfer-target">
          {path === undefined ? null : t('target', { path: displayFolder(path, t('rootFolder')) })}
        </span>
      </div>
      <div className="nb-transfer__actions">
        <UploadActions withLabels target={target} />
      </div>
      {items.length ? (
        <UploadList items={items} className="nb-transfer__list" />
      ) : (
        <div className="nb-files__body">
          <EmptyState
            icon={<CloudUploadOutlined />}
            title={t('transfer.emptyTitle')}
            description={t('transfer.empty')}
          />
        </div>
      )}
    </section>
  );
}
