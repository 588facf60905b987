import {
  CopyOutlined,
  DeleteOutlined,
  ExportOutlined,
  LockOutlined,
  PlusOutlined,
  SettingOutlined,
  ShareAltOutlined,
} from '@ant-design/icons';
import type { ShareView } from '@nimbus/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  App,
  Button,
  Popconfirm,
  Space,
  Table,
  Tag,
  Tooltip,
  Typography,
  type TableColumnsType,
} from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { PageHeader } from '../../../components/PageHeader';
import { copyText } from '../../../lib/clipboard';
import { FileIcon } from '../../../components/FileIcon';
import { listShares, shareKeys, useCancelShares } from '../api';
import { DrivePicker } from '../components/DrivePicker';
import { ShareDialog, type ShareTarget } from '../components/ShareDialog';
import { shareLink } from '../links';
import '../share.css';

const PAGE_SIZE = 20;

/** /share: the links one created, with views, downloads and expiry; settings and cancel. */
export function ShareListPage() {
  const { t } = useTranslation(['share', 'common']);
  const { message } = App.useApp();
  const cancelling = useCancelShares();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(PAGE_SIZE);
  const [selected, setSelected] = useState<string[]>([]);
  const [picking, setPicking] = useState(false);
  const [target, setTarget] = useState<ShareTarget | null>(null);
  const shares = useQuery({
    queryKey: shareKeys.list(page, pageSize),
    queryFn: ({ signal }) => listShares(page, pageSize, signal),
    placeholderData: keepPreviousData,
  });

  const copy = async (share: ShareView) => {
    if (await copyText(shareLink(share.shortId)))
      void message.success({ content: t('common:copied'), duration: 1 });
    else void message.error(t('common:copyUnsupported'));
  };

  const cancel = async (ids: string[]) => {
    await cancelling.mutateAsync(ids);
    setSelected([]);
    void message.success(t('dialog.cancelled'));
  };

  const settings = (share: ShareView) =>
    setTarget({
      id: share.fileId,
      name: share.fileName,
      isFolder: share.isFolder,
      suffix: share.suffix,
    });

  const columns: TableColumnsType<ShareView> = [
    {
      title: t('list.name'),
      key: 'name',
      render: (_, share) => (
        <div className="nb-share-row">
          <FileIcon
            item={{ name: share.fileName, suffix: share.suffix, isFolder: share.isFolder }}
            size={28}
          />
          <div className="nb-share-row__text">
            <a
              href={shareLink(share.shortId)}
              target="_blank"
              rel="noreferrer"
              className="nb-share-row__name"
            >
              {share.fileName}
            </a>
            <Typography.Text type="secondary" className="nb-share-row__path" ellipsis>
              {share.path}
            </Typography.Text>
          </div>
        </div>
      ),
    },
    {
      title: t('list.type'),
      key: 'type',
      width: 150,
      render: (_, share) => (
        <Space size={4} wrap>
          {share.isPrivacy ? (
            <Tag icon={<LockOutlined />} color="gold">
              {t('list.private')} · <span className="nb-mono">{share.extractionCode}</span>
            </Tag>
          ) : (
            <Tag color="blue">{t('list.public')}</Tag>
          )}
          {share.subShare ? <Tag>{t('list.subShare')}</Tag> : null}
          {share.inTrash ? <Tag color="red">{t('list.inTrash')}</Tag> : null}
        </Space>
      ),
    },
    {
      title: t('list.expiry'),
      key: 'expiry',
      width: 150,
      render: (_, share) =>
        share.expired ? (
          <Tag color="red">{t('list.expired')}</Tag>
        ) : share.expireDate ? (
          share.expireDate.slice(0, 16)
        ) : (
          t('list.never')
        ),
    },
    { title: t('list.views'), dataIndex: 'views', width: 80, align: 'right', responsive: ['md'] },
    {
      title: t('list.downloads'),
      dataIndex: 'downloads',
      width: 100,
      align: 'right',
      responsive: ['md'],
    },
    {
      title: t('list.created'),
      dataIndex: 'createDate',
      width: 150,
      responsive: ['lg'],
      render: (value: string) => value.slice(0, 16),
    },
    {
      title: t('list.actions'),
      key: 'actions',
      width: 150,
      align: 'right',
      render: (_, share) => (
        <Space size={0}>
          <Tooltip title={t('list.copy')}>
            <Button
              type="text"
              icon={<CopyOutlined />}
              aria-label={t('list.copy')}
              onClick={() => void copy(share)}
            />
          </Tooltip>
          <Tooltip title={t('list.edit')}>
            <Button
              type="text"
              icon={<SettingOutlined />}
              aria-label={t('list.edit')}
              onClick={() => settings(share)}
              data-testid={`share-settings-${share.fileName}`}
            />
          </Tooltip>
          <Tooltip title={t('list.open')}>
            <Button
              type="text"
              icon={<ExportOutlined />}
              aria-label={t('list.open')}
              href={shareLink(share.shortId)}
              target="_blank"
            />
          </Tooltip>
          <Popconfirm
            title={t('dialog.cancelConfirm')}
            okText={t('dialog.cancelShare')}
            cancelText={t('common:actions.cancel')}
            okButtonProps={{ danger: true, 'data-testid': 'share-row-cancel-confirm' }}
            onConfirm={() => cancel([share.shareId])}
          >
            <Tooltip title={t('list.cancel')}>
              <Button
                type="text"
                danger
                icon={<DeleteOutlined />}
                aria-label={t('list.cancel')}
                data-testid={`share-row-cancel-${share.fileName}`}
              />
            </Tooltip>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  return (
    <div className="nb-page" data-testid="share-list-page">
      <PageHeader
        title={t('list.title')}
        subtitle={t('list.subtitle')}
        extra={
          <Space wrap>
            {selected.length > 0 ? (
              <Popconfirm
                title={t('list.cancelConfirm', { count: selected.length })}
                okText={t('dialog.cancelShare')}
                cancelText={t('common:actions.cancel')}
                okButtonProps={{ danger: true }}
                onConfirm={() => cancel(selected)}
              >
                <Button danger icon={<DeleteOutlined />}>
                  {t('list.cancelSelected')}
                </Button>
              </Popconfirm>
            ) : null}
            <Button
              type="primary"
              icon={<PlusOutlined />}
              onClick={() => setPicking(true)}
              data-testid="share-new"
            >
              {t('list.newShare')}
            </Button>
          </Space>
        }
      />
      {shares.data && shares.data.total === 0 ? (
        <EmptyState icon={<ShareAltOutlined />} title={t('list.empty')} testId="share-list-empty" />
      ) : (
        <Table<ShareView>
          rowKey="shareId"
          columns={columns}
          dataSource={shares.data?.items}
          loading={shares.isPending}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => setSelected(keys as string[]),
          }}
          onRow={(share) => ({ 'data-name': share.fileName }) as object}
          pagination={{
            current: page,
            pageSize,
            total: shares.data?.total ?? 0,
            showSizeChanger: true,
            hideOnSinglePage: true,
            onChange: (next, size) => {
              setPage(size === pageSize ? next : 1);
              setPageSize(size);
            },
          }}
          scroll={{ x: 720 }}
          data-testid="share-list"
        />
      )}
      <DrivePicker
        open={picking}
        mode="any"
        title={t('picker.title')}
        okText={t('picker.choose')}
        onCancel={() => setPicking(false)}
        onChoose={(item) => {
          setPicking(false);
          setTarget({ id: item.id, name: item.name, isFolder: item.isFolder, suffix: item.suffix });
        }}
      />
      <ShareDialog target={target} onClose={() => setTarget(null)} />
    </div>
  );
}
