import { ArrowUpOutlined, FileAddOutlined, ReloadOutlined } from '@ant-design/icons';
import type { FileItem } from '@nimbus/contract';
import { Button, Input, Modal, Spin, Tree, type TreeDataNode } from 'antd';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '../../../api/client';
import { fetchFolderItems, useAddFile } from '../../../api/folders';
import { feedback } from '../../../lib/feedback';
import { FileIcon } from '../../../components/FileIcon';
import { isMount } from '../../../lib/folder-path';
import { isEditableText } from '../editable';

/** Items of one folder the tree lists at most (a folder of more scrolls in the drive itself). */
const FOLDER_PAGE = 500;

/** `/a/b/` → `/a/`; the root stays the root. */
export const parentFolderOf = (folder: string): string => {
  if (folder === '/') return '/';
  const trimmed = folder.slice(0, -1);
  return trimmed.slice(0, trimmed.lastIndexOf('/') + 1);
};

async function listFolder(folder: string): Promise<FileItem[]> {
  const page = await fetchFolderItems(folder, FOLDER_PAGE);
  // folders first, then files, each by name
  return page.items
    .filter((item) => !isMount(item))
    .sort(
      (a, b) =>
        Number(b.isFolder) - Number(a.isFolder) ||
        a.name.localeCompare(b.name, undefined, { numeric: true }),
    );
}

/**
 * The folder of the open file as a tree (spec screen "text editor": up, refresh, new): folders
 * open in place, a text opens in a tab, what the editor does not take is greyed out.
 */
export function FolderTree({
  folder,
  activeId,
  onFolder,
  onOpen,
}: {
  /** The folder at the top of the tree: `/` or `/a/b/`. */
  folder: string;
  activeId: string;
  onFolder: (folder: string) => void;
  onOpen: (item: FileItem) => void;
}) {
  const { t } = useTranslation('editors');
  /** Each folder's items once listed, by the folder's path (`/a/b/`). */
  const [listed, setListed] = useState<Record<string, FileItem[]>>({});
  const [expanded, setExpanded] = useState<string[]>([]);
  const [naming, setNaming] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const addFile = useAddFile();

  const load = useCallback(async (path: string) => {
    const items = await listFolder(path);
    setListed((current) => ({ ...current, [path]: items }));
  }, []);

  // the window makes a new tree for another folder (keyed by it): only the listing loads here
  useEffect(() => {
    let live = true;
    listFolder(folder).then(
      (items) => live && setListed((current) => ({ ...current, [folder]: items })),
      () => live && setListed({ [folder]: [] }),
    );
    return () => {
      live = false;
    };
  }, [folder]);

  const refresh = () => {
    // the open folders are listed again, the others when next opened
    const open = [folder, ...expanded];
    setListed({});
    void Promise.all(open.map((path) => load(path).catch(() => undefined)));
  };

  /** The item of each node of the tree, by the node's key. */
  const byKey = new Map<string, FileItem>();
  const nodesOf = (path: string): TreeDataNode[] | undefined =>
    listed[path]?.map((item) => {
      const childPath = `${item.path}${item.name}/`;
      byKey.set(item.isFolder ? childPath : item.id, item);
      return {
        key: item.isFolder ? childPath : item.id,
        title: (
          <span className="nb-folder-tree__name" data-testid="text-tree-item" data-name={item.name}>
            {item.name}
          </span>
        ),
        icon: <FileIcon item={item} size={16} />,
        isLeaf: !item.isFolder,
        disabled: !item.isFolder && !isEditableText(item),
        children: item.isFolder ? nodesOf(childPath) : undefined,
      };
    });

  const create = async (name: string) => {
    const wanted = name.trim();
    if (!wanted) return;
    setBusy(true);
    try {
      const made = await addFile.mutateAsync({
        folder,
        name: wanted.includes('.') ? wanted : `${wanted}.txt`,
      });
      setNaming(null);
      await load(folder);
      if (made?.id) onOpen(made);
    } catch (error) {
      const why =
        error instanceof ApiError && error.envelope ? errorText(error.envelope) : String(error);
      void feedback().message.error({ content: why, duration: 3 });
    } finally {
      setBusy(false);
    }
  };

  const roots = nodesOf(folder);
  return (
    <div className="nb-folder-tree" data-testid="text-tree">
      <div className="nb-folder-tree__bar">
        <Button
          size="small"
          type="text"
          icon={<ArrowUpOutlined />}
          disabled={folder === '/'}
          onClick={() => onFolder(parentFolderOf(folder))}
          data-testid="text-tree-up"
        >
          {t('text.up')}
        </Button>
        <Button
          size="small"
          type="text"
          icon={<ReloadOutlined />}
          onClick={refresh}
          data-testid="text-tree-refresh"
        >
          {t('text.refresh')}
        </Button>
        <Button
          size="small"
          type="text"
          icon={<FileAddOutlined />}
          onClick={() => setNaming(t('text.newName'))}
          data-testid="text-tree-new"
        >
          {t('text.new')}
        </Button>
      </div>
      <div className="nb-folder-tree__where" title={folder}>
        {folder}
      </div>
      <div className="nb-folder-tree__body">
        {roots === undefined ? (
          <Spin size="small" className="nb-folder-tree__loading" />
        ) : (
          <Tree
            showIcon
            blockNode
            treeData={roots}
            selectedKeys={[activeId]}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys.map(String))}
            loadData={async (node) => {
              const key = String(node.key);
              if (!node.isLeaf && !listed[key]) await load(key).catch(() => undefined);
            }}
            onSelect={(_keys, { node }) => {
              const key = String(node.key);
              const item = byKey.get(key);
              if (!item) return;
              if (item.isFolder) {
                setExpanded((open) =>
                  open.includes(key) ? open.filter((k) => k !== key) : [...open, key],
                );
              } else onOpen(item);
            }}
          />
        )}
      </div>
      <Modal
        open={naming !== null}
        title={t('text.newTitle')}
        okText={t('text.create')}
        cancelText={t('cancel')}
        confirmLoading={busy}
        onOk={() => void create(naming ?? '')}
        onCancel={() => setNaming(null)}
        okButtonProps={{ 'data-testid': 'text-tree-new-ok' }}
        destroyOnHidden
      >
        <Input
          autoFocus
          value={naming ?? ''}
          maxLength={255}
          onChange={(event) => setNaming(event.target.value)}
          onPressEnter={() => void create(naming ?? '')}
          data-testid="text-tree-new-name"
        />
      </Modal>
    </div>
  );
}
