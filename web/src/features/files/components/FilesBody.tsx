import { ReloadOutlined } from '@ant-design/icons';
import { Button, Result, Spin } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import type { Listing } from '../hooks/use-file-selection';
import type { FileViewConfig } from '../view-icons';
import type { FileViewKind } from '../../../lib/view-kinds';

interface FilesBodyProps {
  kind: FileViewKind;
  config: FileViewConfig;
  tagId: string | null;
  listing: Listing;
  listable: boolean;
  folderMissing: boolean;
  writable: boolean;
  homeLink: string;
  onBackgroundContextMenu: (point: { x: number; y: number }) => void;
  /** The listing itself, shown once there are items. */
  children: ReactNode;
}

/** The listing, or what stands in its place: a missing folder, loading, an error, nothing. */
export function FilesBody({
  kind,
  config,
  tagId,
  listing: { query, items },
  listable,
  folderMissing,
  writable,
  homeLink,
  onBackgroundContextMenu,
  children,
}: FilesBodyProps) {
  const { t } = useTranslation('files');
  const emptyKey = kind === 'tag' && !tagId ? 'tagsNone' : kind;

  if (folderMissing) {
    return (
      <Result
        status="404"
        title={t('messages.folderMissing')}
        subTitle={t('messages.folderMissingHint')}
        data-testid="files-missing"
        extra={
          <Link to={homeLink}>
            <Button type="primary">{t('messages.goHome')}</Button>
          </Link>
        }
      />
    );
  }
  if (listable && query.isPending) {
    return (
      <div className="nb-files__center" data-testid="files-loading">
        <Spin size="large" />
      </div>
    );
  }
  if (listable && query.isError && !query.data) {
    return (
      <Result
        status="warning"
        title={t('messages.loadFailed')}
        subTitle={query.error instanceof Error ? query.error.message : undefined}
        data-testid="files-error"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t('messages.retry')}
          </Button>
        }
      />
    );
  }
  if (items.length === 0) {
    return (
      <div
        className="nb-files__center"
        onContextMenu={(event) => {
          if (!listable) return;
          event.preventDefault();
          onBackgroundContextMenu({ x: event.clientX, y: event.clientY });
        }}
      >
        <EmptyState
          icon={config.icon}
          title={t(`empty.${emptyKey}.title`)}
          description={
            <>
              {t(`empty.${emptyKey}.description`)}
              {writable ? <div className="nb-files__hint">{t('empty.dropHint')}</div> : null}
            </>
          }
          testId="files-empty"
        />
      </div>
    );
  }
  return children;
}
