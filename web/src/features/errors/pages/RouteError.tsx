import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Shown when a page fails to render or its code cannot be loaded (e.g. after an upgrade). */
export function RouteError() {
  const { t } = useTranslation('errors');
  const error = useRouteError();
  console.error(error);
  return (
    <main className="nb-full-center">
      <Result
        status="error"
        title={t('crashed')}
        subTitle={t('crashedHint')}
        extra={
          <Button type="primary" onClick={() => window.location.reload()}>
            {t('reload')}
          </Button>
        }
      />
    </main>
  );
}
