import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';

export function NotFoundPage() {
  const { t } = useTranslation('errors');
  return (
    <main className="nb-full-center" data-testid="not-found">
      <Result
        status="404"
        title="404"
        subTitle={t('notFound')}
        extra={
          <Link to="/">
            <Button type="primary" data-testid="not-found-home">
              {t('backHome')}
            </Button>
          </Link>
        }
      />
    </main>
  );
}
