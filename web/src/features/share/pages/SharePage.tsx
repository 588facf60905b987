import { LinkOutlined, ShareAltOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';

/** /s, /s/:id and /s_m. Without a share id there is nothing to open yet. */
export function SharePage() {
  const { t } = useTranslation('share');
  const { id } = useParams();
  return (
    <section className="nb-files" data-testid="share-page" data-share-id={id ?? ''}>
      <div className="nb-files__toolbar">
        <div className="nb-files__crumb">
          <ShareAltOutlined />
          <strong>{t('title')}</strong>
        </div>
      </div>
      <div className="nb-files__body">
        {id ? (
          <EmptyState
            icon={<ShareAltOutlined />}
            title={t('empty.title')}
            description={t('empty.description')}
          />
        ) : (
          <EmptyState
            icon={<LinkOutlined />}
            title={t('noLink.title')}
            description={t('noLink.description')}
          />
        )}
      </div>
    </section>
  );
}
