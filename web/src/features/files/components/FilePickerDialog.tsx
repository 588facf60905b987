import { HomeOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Empty, Modal, Spin } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAppStore } from '../../../stores/app';
import { isViewableImage } from '../file-kinds';
import { normalizeFolderPath } from '../folder-path';
import { childPathOf, type FileItem, type ListingKey } from '../types';
import { useListing } from '../use-listing';
import { pathSegments } from '../view-kinds';
import { FileCollection, type CollectionHandlers } from './FileCollection';

export interface FilePickerDialogProps {
  open: boolean;
  /** Defaults to "Select file". */
  title?: string;
  /** Which files can be chosen; images by default (spec §2). */
  accept?: (item: FileItem) => boolean;
  onCancel: () => void;
  onSelect: (item: FileItem) => void;
}

const noop = () => {};

/**
 * Choose a file of the drive (spec §2 file-picker dialog): the browser in grid mode, images
 * only, newest first, without upload, search or sharing; "Select" waits for a file.
 */
export function FilePickerDialog({
  open,
  title,
  accept = isViewableImage,
  onCancel,
  onSelect,
}: FilePickerDialogProps) {
  const { t } = useTranslation('files');
  const mobile = useAppStore((s) => s.device === 'mobile');
  const [path, setPath] = useState('/');
  const [chosen, setChosen] = useState<FileItem | null>(null);
  const key: ListingKey = { kind: 'home', path, sortProp: 'updateDate', order: 'descending' };
  const { query, items } = useListing(key, open);
  const shown = useMemo(
    () => items.filter((item) => item.isFolder || accept(item)),
    [items, accept],
  );

  const enter = (folder: string) => {
    setPath(normalizeFolderPath(folder));
    setChosen(null);
  };
  const pick = (item: FileItem) => {
    if (item.isFolder) enter(childPathOf(item));
    else onSelect(item);
  };

  const handlers: CollectionHandlers = {
    onItemClick: (item) => {
      if (item.isFolder) {
        if (mobile) enter(childPathOf(item));
        return;
      }
      setChosen(item);
      if (mobile) return;
    },
    onItemOpen: pick,
    onItemToggle: (item) => !item.isFolder && setChosen(item),
    onItemContextMenu: noop,
    onBackgroundClick: () => setChosen(null),
    onBackgroundContextMenu: noop,
    onMarquee: noop,
    onMarqueeStart: noop,
    onLoadMore: () => {
      if (query.hasNextPage && !query.isFetchingNextPage) void query.fetchNextPage();
    },
    onSort: noop,
    onDragStart: noop,
    onDropOn: noop,
    canDropOn: () => false,
    onRenameSubmit: () => Promise.resolve(null),
    onRenameCancel: noop,
    onKeyDown: (event) => {
      if (event.key === 'Enter' && chosen) onSelect(chosen);
    },
  };

  const segments = pathSegments(path);
  const crumbs = [
    {
      key: '/',
      title: (
        <a onClick={() => enter('/')} data-testid="file-picker-root">
          <HomeOutlined /> {t('allFiles')}
        </a>
      ),
    },
    ...segments.map((segment, index) => ({
      key: `${index}`,
      title:
        index === segments.length - 1 ? (
          segment
        ) : (
          <a onClick={() => enter(`/${segments.slice(0, index + 1).join('/')}/`)}>{segment}</a>
        ),
    })),
  ];

  return (
    <Modal
      open={open}
      title={title ?? t('picker.title')}
      onCancel={onCancel}
      width={mobile ? '100%' : 820}
      destroyOnHidden
      afterOpenChange={(isOpen) => {
        if (!isOpen) {
          setPath('/');
          setChosen(null);
        }
      }}
      footer={[
        <Button key="cancel" onClick={onCancel} data-testid="file-picker-cancel">
          {t('picker.cancel')}
        </Button>,
        <Button
          key="select"
          type="primary"
          disabled={!chosen}
          onClick={() => chosen && onSelect(chosen)}
          data-testid="file-picker-select"
        >
          {t('picker.select')}
        </Button>,
      ]}
    >
      <div className="nb-picker" data-testid="file-picker">
        <Breadcrumb items={crumbs} className="nb-picker__crumbs" />
        <div className="nb-picker__body">
          {query.isPending ? (
            <div className="nb-files__center">
              <Spin />
            </div>
          ) : shown.length === 0 && !query.hasNextPage ? (
            <div className="nb-files__center">
              <Empty description={t('empty.image.title')} />
            </div>
          ) : (
            <FileCollection
              items={shown}
              mode="grid"
              mobile={mobile}
              selected={new Set(chosen ? [chosen.id] : [])}
              focusedId={chosen?.id ?? null}
              highlightId={null}
              renamingId={null}
              hasMore={Boolean(query.hasNextPage)}
              loadingMore={query.isFetchingNextPage}
              showLocation={false}
              trash={false}
              sortProp="updateDate"
              order="descending"
              draggable={false}
              itemControls={false}
              handlers={handlers}
              label={title ?? t('picker.title')}
              testId="file-picker-list"
            />
          )}
        </div>
      </div>
    </Modal>
  );
}
