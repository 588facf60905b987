import { Button, Result } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { useMenuTree } from '../api/account';
import { hasMenuPath } from '../lib/menus';
import { FullPageSpin } from './guards';

export function ForbiddenResult() {
  const { t } = useTranslation('errors');
  return (
    <Result
      status="403"
      title="403"
      subTitle={t('forbidden')}
      data-testid="forbidden"
      extra={
        <Link to="/">
          <Button type="primary">{t('backHome')}</Button>
        </Link>
      }
    />
  );
}

/** Settings routes exist only for users whose menu tree holds their path (spec §6). */
export function MenuGate({ children }: { children: ReactNode }) {
  const { t } = useTranslation('errors');
  const { pathname } = useLocation();
  const menu = useMenuTree();
  if (menu.isPending) return <FullPageSpin />;
  if (menu.isError) {
    return (
      <Result
        status="warning"
        title={t('menuLoadFailed')}
        extra={
          <Button type="primary" onClick={() => void menu.refetch()}>
            {t('retry')}
          </Button>
        }
      />
    );
  }
  if (!hasMenuPath(menu.data, pathname)) return <ForbiddenResult />;
  return children;
}
