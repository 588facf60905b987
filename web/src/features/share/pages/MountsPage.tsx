import {
  ArrowLeftOutlined,
  CloudServerOutlined,
  DisconnectOutlined,
  FolderOpenOutlined,
} from '@ant-design/icons';
import type { MountView } from '@nimbus/contract';
import { useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Popconfirm,
  Result,
  Space,
  Spin,
  Table,
  Tag,
  Tooltip,
  type TableColumnsType,
} from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { ApiError } from '../../../api/client';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { useAppStore } from '../../../stores/app';
import { fileUrl } from '../../../api/bytes';
import { FileIcon } from '../../../components/FileIcon';
import { listMounts, shareFolderQuery, shareKeys, useRemoveMount } from '../api';
import { ShareBrowser } from '../components/ShareBrowser';
import '../share.css';

/** A mounted folder opened: the owner's files, with what the share allows. */
function MountBrowser({ share }: { share: string }) {
  const { t } = useTranslation(['share', 'common']);
  const [search, setSearch] = useSearchParams();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const path = search.get('path') || '/';
  const root = useQuery({ ...shareFolderQuery(share, '/', 1), retry: false });
  const mounts = useQuery({
    queryKey: shareKeys.mounts,
    queryFn: ({ signal }) => listMounts(signal),
  });
  const mount = mounts.data?.find(
    (m) => m.shareId === share || m.shareId === root.data?.facts.shareId,
  );
  const facts = root.data?.facts;

  const navigate = (next: string) => {
    const params = new URLSearchParams(search);
    if (next === '/') params.delete('path');
    else params.set('path', next);
    setSearch(params);
  };

  const back = (
    <Link to="/mount">
      <Button icon={<ArrowLeftOutlined />} data-testid="mount-back">
        {t('mounts.back')}
      </Button>
    </Link>
  );

  if (root.isPending) {
    return (
      <div className="nb-share-page__loading">
        <Spin size="large" />
      </div>
    );
  }
  if (root.isError || !facts) {
    const code = root.error instanceof ApiError ? root.error.code : 0;
    return (
      <Result
        status="warning"
        title={
          code === 19
            ? t('page.expired')
            : code === 23
              ? t('page.cancelled')
              : t('page.unavailable')
        }
        extra={back}
        data-testid="share-problem"
      />
    );
  }
  return (
    <div className="nb-page nb-mount-page" data-testid="mount-browser">
      <PageHeader
        title={
          <span className="nb-dialog-title">
            <CloudServerOutlined /> {mount?.name ?? facts.fileName}
          </span>
        }
        subtitle={t('page.sharedBy', { name: facts.sharer.showName || facts.sharer.username })}
        extra={back}
      />
      <ShareBrowser
        share={share}
        facts={facts}
        path={path}
        onNavigate={navigate}
        mobile={mobile}
        bytesUrl={(item, download) => fileUrl(item, download)}
        rootLabel={mount?.name}
      />
    </div>
  );
}

/** /mount: folders of other people mounted into one's drive; `?share=` opens one. */
export function MountsPage() {
  const { t } = useTranslation(['share', 'common']);
  const { message } = App.useApp();
  const removeMount = useRemoveMount();
  const [search] = useSearchParams();
  const share = search.get('share');
  const mounts = useQuery({
    queryKey: shareKeys.mounts,
    queryFn: ({ signal }) => listMounts(signal),
    enabled: !share,
  });

  if (share) return <MountBrowser share={share} />;

  const openLink = (mount: MountView) => `/mount?share=${encodeURIComponent(mount.shareId)}`;

  const columns: TableColumnsType<MountView> = [
    {
      title: t('list.name'),
      key: 'name',
      render: (_, mount) => (
        <Link
          to={openLink(mount)}
          className="nb-share-row"
          data-testid={`mount-open-${mount.name}`}
        >
          <FileIcon item={{ name: mount.name, suffix: '', isFolder: true }} size={28} />
          <span className="nb-share-row__name">{mount.name}</span>
        </Link>
      ),
    },
    {
      title: t('mounts.owner'),
      key: 'owner',
      width: 160,
      render: (_, m) => m.fileShowName || m.fileUsername,
    },
    {
      title: t('mounts.location'),
      dataIndex: 'path',
      width: 200,
      responsive: ['md'],
    },
    {
      title: t('mounts.permissions'),
      key: 'permissions',
      width: 200,
      responsive: ['lg'],
      render: (_, mount) => (
        <Space size={4} wrap>
          {mount.operationPermissionList.length === 0 ? <Tag>{t('mounts.readOnly')}</Tag> : null}
          {mount.operationPermissionList.map((op) => (
            <Tag key={op} color="blue">
              {t(
                op === 'UPLOAD' ? 'dialog.upload' : op === 'PUT' ? 'dialog.edit' : 'dialog.delete',
              )}
            </Tag>
          ))}
          {mount.expired ? <Tag color="red">{t('mounts.expired')}</Tag> : null}
        </Space>
      ),
    },
    {
      title: t('list.actions'),
      key: 'actions',
      width: 110,
      align: 'right',
      render: (_, mount) => (
        <Space size={0}>
          <Tooltip title={t('list.open')}>
            <Link to={openLink(mount)}>
              <Button type="text" icon={<FolderOpenOutlined />} aria-label={t('list.open')} />
            </Link>
          </Tooltip>
          <Popconfirm
            title={t('mounts.removeConfirm', { name: mount.name })}
            okText={t('mounts.remove')}
            okButtonProps={{ danger: true }}
            cancelText={t('common:actions.cancel')}
            onConfirm={async () => {
              await removeMount.mutateAsync(mount);
              void message.success(t('mounts.removed'));
            }}
          >
            <Tooltip title={t('mounts.remove')}>
              <Button
                type="text"
                danger
                icon={<DisconnectOutlined />}
                aria-label={t('mounts.remove')}
              />
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="nb-page" data-testid="mounts-page">
      <PageHeader title={t('mounts.title')} subtitle={t('mounts.subtitle')} />
      {mounts.data && mounts.data.length === 0 ? (
        <EmptyState
          icon={<CloudServerOutlined />}
          title={t('mounts.empty')}
          testId="mounts-empty"
        />
      ) : (
        <Table<MountView>
          rowKey="mountId"
          columns={columns}
          dataSource={mounts.data}
          loading={mounts.isPending}
          pagination={false}
          data-testid="mounts-list"
        />
      )}
    </div>
  );
}
