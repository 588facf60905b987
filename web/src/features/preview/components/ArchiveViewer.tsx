import { DownloadOutlined, FolderOpenOutlined } from '@ant-design/icons';
import type { ArchiveEntry } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import { Alert, App, Breadcrumb, Button, Empty, Modal, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FILE_AUTHORITY, authorityCheck } from '../../../actions/authorities';
import { formatSize } from '../../../lib/format';
import { useAppStore } from '../../../stores/app';
import { useSessionStore } from '../../../stores/session';
import { useUserInfo } from '../../../api/account';
import { startDownload } from '../../../api/bytes';
import { useExtractArchive } from '../../../api/folders';
import { FileIcon } from '../../../components/FileIcon';
import { fetchArchive, previewKeys } from '../api';
import type { ViewerProps } from '../../../actions/viewers';

const suffixOfName = (name: string) => {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(dot + 1) : '';
};

/** The entries directly inside `folder` ('' for the top), folders first, then by name. */
function childrenOf(entries: readonly ArchiveEntry[], folder: string): ArchiveEntry[] {
  const prefix = folder ? `${folder}/` : '';
  return entries
    .filter((e) => e.path.startsWith(prefix) && !e.path.slice(prefix.length).includes('/'))
    .filter((e) => e.path.length > prefix.length)
    .sort((a, b) =>
      a.isFolder !== b.isFolder ? (a.isFolder ? -1 : 1) : a.name.localeCompare(b.name),
    );
}

/**
 * A browser inside a zip, jar, tar, tar.gz, 7z or rar, read without extracting it (API-NOTES §3 step 6);
 * its owner extracts it beside the archive from here.
 */
export default function ArchiveViewer({ item, source, onClose }: ViewerProps) {
  const { t } = useTranslation('preview');
  const { message } = App.useApp();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const userId = useSessionStore((s) => s.userId);
  const granted = useUserInfo().data?.authorities;
  const [folder, setFolder] = useState('');
  const listing = useQuery({
    queryKey: previewKeys.archive(source, item),
    queryFn: ({ signal }) => fetchArchive(source, item, signal),
    staleTime: 60_000,
    retry: false,
  });
  const extract = useExtractArchive();
  const shown = useMemo(
    () => (listing.data ? childrenOf(listing.data.entries, folder) : []),
    [listing.data, folder],
  );
  const files = listing.data?.entries.filter((e) => !e.isFolder) ?? [];
  const expanded = files.reduce((sum, e) => sum + e.size, 0);
  const canExtract =
    source.kind === 'owner' &&
    item.userId === userId &&
    authorityCheck(granted ?? [])(FILE_AUTHORITY.upload);
  const downloadUrl = source.downloadUrl(item);
  const segments = folder ? folder.split('/') : [];

  const runExtract = () => {
    const key = `extract-${item.id}`;
    void message.loading({
      key,
      content: t('archive.extracting', { name: item.name }),
      duration: 0,
    });
    extract.mutateAsync(item.id).then(
      (created) => {
        void message.success({
          key,
          content: t('archive.extracted', { name: created?.name ?? '' }),
        });
        onClose();
      },
      () => message.destroy(key),
    );
  };

  return (
    <Modal
      open
      onCancel={onClose}
      width={mobile ? '100%' : 820}
      centered={!mobile}
      destroyOnHidden
      className="nb-archive"
      title={
        <span className="nb-dialog-title">
          <FileIcon item={item} size={22} />
          <span className="nb-text-preview__name">{item.name}</span>
          <span className="nb-text-preview__size">{formatSize(item.size)}</span>
        </span>
      }
      footer={[
        downloadUrl ? (
          <Button
            key="download"
            icon={<DownloadOutlined />}
            onClick={() => startDownload(downloadUrl, item.name)}
          >
            {t('download')}
          </Button>
        ) : null,
        canExtract ? (
          <Button
            key="extract"
            type="primary"
            icon={<FolderOpenOutlined />}
            loading={extract.isPending}
            disabled={!listing.data}
            onClick={runExtract}
            data-testid="archive-extract"
          >
            {t('archive.extract')}
          </Button>
        ) : null,
        <Button key="close" onClick={onClose}>
          {t('close')}
        </Button>,
      ]}
    >
      <div data-testid="archive-viewer">
        {listing.isPending ? (
          <div className="nb-text-preview__loading">
            <Spin />
          </div>
        ) : listing.isError ? (
          <Alert type="error" showIcon title={t('archive.unreadable')} />
        ) : (
          <>
            <div className="nb-archive__bar">
              <Breadcrumb
                items={[
                  {
                    key: '',
                    title: <a onClick={() => setFolder('')}>{item.name}</a>,
                  },
                  ...segments.map((name, i) => ({
                    key: segments.slice(0, i + 1).join('/'),
                    title: (
                      <a onClick={() => setFolder(segments.slice(0, i + 1).join('/'))}>{name}</a>
                    ),
                  })),
                ]}
              />
              <span className="nb-archive__summary" data-testid="archive-summary">
                {t('archive.summary', { count: files.length, size: formatSize(expanded) })}
              </span>
            </div>
            {listing.data.truncated ? (
              <Alert
                type="info"
                showIcon
                className="nb-text-preview__note"
                title={t('archive.truncated')}
              />
            ) : null}
            {shown.length === 0 ? (
              <Empty description={t('archive.empty')} />
            ) : (
              <ul className="nb-archive__list" role="list">
                {shown.map((entry) => (
                  <li key={entry.path}>
                    <button
                      type="button"
                      className="nb-archive__entry"
                      disabled={!entry.isFolder}
                      onClick={() => entry.isFolder && setFolder(entry.path)}
                      data-testid="archive-entry"
                    >
                      <FileIcon
                        item={{
                          name: entry.name,
                          suffix: suffixOfName(entry.name),
                          isFolder: entry.isFolder,
                        }}
                        size={20}
                      />
                      <span className="nb-archive__name">{entry.name}</span>
                      <span className="nb-archive__size">
                        {entry.isFolder ? '' : formatSize(entry.size)}
                      </span>
                      <span className="nb-archive__date">{entry.updateDate}</span>
                    </button>
                  </li>
                ))}
              </ul>
            )}
          </>
        )}
      </div>
    </Modal>
  );
}
