import { ReadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';

/** /articles: the user's published articles. */
export function ArticlesPage() {
  const { t } = useTranslation('files');
  return (
    <section className="nb-files" data-testid="articles-page">
      <div className="nb-files__toolbar">
        <div className="nb-files__crumb">
          <strong>{t('views.articles')}</strong>
        </div>
      </div>
      <div className="nb-files__body">
        <EmptyState
          icon={<ReadOutlined />}
          title={t('empty.articles.title')}
          description={t('empty.articles.description')}
        />
      </div>
    </section>
  );
}
