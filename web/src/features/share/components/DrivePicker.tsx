import { filesApi, type FileItem } from '@nimbus/contract';
import { FolderOpenOutlined, RightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Breadcrumb, Button, Empty, List, Modal, Spin } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { callEndpointPage } from '../../../api/endpoints';
import { FileIcon } from '../../../components/FileIcon';

/** An item of the signed-in user's drive, as /api/list answers it: the fields the picker reads. */
export type DriveItem = Pick<FileItem, 'id' | 'name' | 'path' | 'isFolder' | 'suffix'>;

const ROOT: DriveItem = { id: '0', name: '', path: '/', isFolder: true, suffix: '' };

interface DrivePickerProps {
  open: boolean;
  title: string;
  /** `folder`: the folder on screen is the choice; `any`: a file or folder picked in the list. */
  mode: 'folder' | 'any';
  okText: string;
  onCancel: () => void;
  onChoose: (item: DriveItem) => Promise<void> | void;
  /** More fields under the list (a name for a mount). */
  children?: ReactNode;
}

/** Browse one's own drive to choose a folder (mount into) or an item (share it). */
export function DrivePicker({
  open,
  title,
  mode,
  okText,
  onCancel,
  onChoose,
  children,
}: DrivePickerProps) {
  const { t } = useTranslation(['share', 'common']);
  const [trail, setTrail] = useState<DriveItem[]>([]);
  const [picked, setPicked] = useState<DriveItem | null>(null);
  const [busy, setBusy] = useState(false);
  const folder = trail[trail.length - 1] ?? ROOT;
  const directory = folder.id === '0' ? '/' : `${folder.path}${folder.name}`;

  // every opening starts at the root
  const [wasOpen, setWasOpen] = useState(open);
  if (open !== wasOpen) {
    setWasOpen(open);
    if (open) {
      setTrail([]);
      setPicked(null);
    }
  }

  const listing = useQuery({
    queryKey: ['share', 'picker', mode, directory],
    queryFn: ({ signal }) =>
      callEndpointPage(
        filesApi.list,
        {
          query: {
            currentDirectory: directory,
            pageSize: 500,
            ...(mode === 'folder' ? { isFolder: true } : {}),
          },
        },
        { signal },
      ),
    enabled: open,
  });

  const enter = (item: DriveItem) => {
    setTrail((current) => [...current, item]);
    setPicked(null);
  };

  const choice = mode === 'folder' ? folder : picked;
  const choose = async () => {
    if (!choice) return;
    setBusy(true);
    try {
      await onChoose(choice);
    } catch {
      // the API client has shown what went wrong; the dialog stays open to try again
    } finally {
      setBusy(false);
    }
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onCancel}
      destroyOnHidden
      footer={[
        <Button key="cancel" onClick={onCancel}>
          {t('common:actions.cancel')}
        </Button>,
        <Button
          key="ok"
          type="primary"
          disabled={!choice}
          loading={busy}
          onClick={() => void choose()}
          data-testid="picker-choose"
        >
          {okText}
        </Button>,
      ]}
    >
      <div data-testid="drive-picker">
        <Breadcrumb
          className="nb-picker__crumbs"
          items={[
            {
              title: (
                <a onClick={() => setTrail([])} data-testid="picker-root">
                  <FolderOpenOutlined /> {t('picker.root')}
                </a>
              ),
            },
            ...trail.map((item, i) => ({
              title: <a onClick={() => setTrail(trail.slice(0, i + 1))}>{item.name}</a>,
            })),
          ]}
        />
        <div className="nb-picker__list">
          {listing.isPending ? (
            <div className="nb-share-dialog__loading">
              <Spin />
            </div>
          ) : (listing.data?.items.length ?? 0) === 0 ? (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('picker.empty')} />
          ) : (
            <List
              size="small"
              dataSource={listing.data?.items ?? []}
              renderItem={(item) => (
                <List.Item
                  className={`nb-picker__item${picked?.id === item.id ? ' is-picked' : ''}`}
                  onClick={() => (mode === 'folder' ? enter(item) : setPicked(item))}
                  onDoubleClick={() => item.isFolder && enter(item)}
                  data-testid={`picker-item-${item.name}`}
                  actions={
                    item.isFolder && mode === 'any'
                      ? [
                          <Button
                            key="open"
                            type="text"
                            size="small"
                            icon={<RightOutlined />}
                            aria-label={item.name}
                            onClick={(event) => {
                              event.stopPropagation();
                              enter(item);
                            }}
                            data-testid={`picker-open-${item.name}`}
                          />,
                        ]
                      : undefined
                  }
                >
                  <span className="nb-picker__name">
                    <FileIcon item={item} size={22} />
                    {item.name}
                  </span>
                </List.Item>
              )}
            />
          )}
        </div>
        {children}
      </div>
    </Modal>
  );
}
