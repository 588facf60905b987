import { DeleteOutlined, ReloadOutlined } from '@ant-design/icons';
import { formatSize } from '@nimbus/contract';
import { App, Button, Empty, Modal, Popconfirm, Progress, Spin, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { displayFolder } from '../use-upload';
import { useCancelServerUpload, useServerUploads, type ServerUpload } from '../sessions-api';

function Row({ item }: { item: ServerUpload }) {
  const { t } = useTranslation('upload');
  const { message } = App.useApp();
  const cancel = useCancelServerUpload();
  const percent = item.totalSize ? Math.floor((item.receivedBytes / item.totalSize) * 100) : 100;
  const who =
    item.startedBy === 'visitor'
      ? t('sessions.byVisitor', {
          share: item.share?.name ?? t('sessions.unknownShare'),
          address: item.visitorAddress ?? '?',
        })
      : t('sessions.byMe');
  return (
    <li className="nb-server-uploads__item" data-testid="server-upload" data-id={item.id}>
      <div className="nb-server-uploads__main">
        <div className="nb-server-uploads__name" title={item.filename}>
          {item.filename}
        </div>
        <div className="nb-server-uploads__meta">
          <span>{t('target', { path: displayFolder(item.targetPath, t('rootFolder')) })}</span>
          <Tag color={item.startedBy === 'visitor' ? 'orange' : 'blue'}>{who}</Tag>
        </div>
        <Progress
          percent={percent}
          size="small"
          status={item.state === 'merging' ? 'active' : 'normal'}
        />
        <div className="nb-server-uploads__meta">
          <span>
            {t('sessions.received', {
              received: formatSize(item.receivedBytes),
              total: formatSize(item.totalSize),
            })}
          </span>
          <span>{t('sessions.lastActivity', { date: item.lastActivity })}</span>
        </div>
      </div>
      {item.state === 'merging' ? (
        <span className="nb-server-uploads__state">{t('status.merging')}</span>
      ) : (
        <Popconfirm
          title={t('sessions.cancelConfirm', { name: item.filename })}
          okText={t('sessions.cancel')}
          cancelText={t('sessions.keep')}
          okButtonProps={{ danger: true, 'data-testid': 'server-upload-cancel-confirm' }}
          onConfirm={async () => {
            await cancel.mutateAsync(item.id);
            void message.success(t('sessions.cancelled', { name: item.filename }));
          }}
        >
          <Button
            danger
            size="small"
            icon={<DeleteOutlined />}
            loading={cancel.isPending}
            aria-label={t('sessions.cancel')}
            data-testid="server-upload-cancel"
          >
            {t('sessions.cancel')}
          </Button>
        </Popconfirm>
      )}
    </li>
  );
}

/**
 * The uploads under way on the server into the user's drive: their own (from any device) and
 * those of their shares' visitors, each with its progress and a way to cancel it.
 */
export function ServerUploadsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation('upload');
  const uploads = useServerUploads(open);
  const items = uploads.data ?? [];
  return (
    <Modal
      open={open}
      onCancel={onClose}
      title={t('sessions.title')}
      width={560}
      // above the upload panel
      zIndex={1100}
      destroyOnHidden
      footer={
        <div className="nb-server-uploads__footer">
          <Button
            icon={<ReloadOutlined />}
            onClick={() => void uploads.refetch()}
            data-testid="server-uploads-refresh"
          >
            {t('sessions.refresh')}
          </Button>
          <Button type="primary" onClick={onClose}>
            {t('actions.close')}
          </Button>
        </div>
      }
    >
      <p className="nb-server-uploads__hint">{t('sessions.hint')}</p>
      {uploads.isLoading ? (
        <Spin />
      ) : items.length === 0 ? (
        <Empty description={t('sessions.empty')} data-testid="server-uploads-empty" />
      ) : (
        <ul className="nb-server-uploads" data-testid="server-uploads">
          {items.map((item) => (
            <Row key={item.id} item={item} />
          ))}
        </ul>
      )}
    </Modal>
  );
}
