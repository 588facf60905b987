import { FolderFilled, FolderOpenFilled, HomeFilled } from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Modal, Tree, type TreeDataNode } from 'antd';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { treeQuery } from '../api';
import { canDropInto, type DropTarget } from '../../../components/file-browser/drag';
import { childPathOf, ROOT_FOLDER_ID, type FileItem } from '../types';

export interface MoveCopyRequest {
  items: FileItem[];
  /** Where the tree starts selected (the folder on screen). */
  initial?: DropTarget;
  /** What the user's role may do (moving needs editing, copying uploading). */
  modes: { move: boolean; copy: boolean };
}

interface MoveCopyDialogProps {
  request: MoveCopyRequest | null;
  onClose: () => void;
  /** Runs the move or copy; resolves true when done (the dialog closes). */
  onSubmit: (items: FileItem[], target: DropTarget, mode: 'move' | 'copy') => Promise<boolean>;
}

interface Node extends TreeDataNode {
  key: string;
  target: DropTarget;
}

/** Move or copy into a folder chosen in a tree that loads each level when opened. */
export function MoveCopyDialog({ request, onClose, onSubmit }: MoveCopyDialogProps) {
  const { t } = useTranslation('files');
  const queryClient = useQueryClient();
  const [children, setChildren] = useState<Record<string, FileItem[]>>({});
  const [expanded, setExpanded] = useState<string[]>([ROOT_FOLDER_ID]);
  const [chosen, setChosen] = useState<DropTarget | null>(null);

  const root: DropTarget = useMemo(
    () => ({ id: ROOT_FOLDER_ID, path: '/', name: t('allFiles') }),
    [t],
  );

  // a new request starts at the folder on screen, with the tree's first level fresh
  const [shown, setShown] = useState(request);
  if (shown !== request) {
    setShown(request);
    if (request) {
      setChosen(request.initial ?? root);
      setExpanded([ROOT_FOLDER_ID]);
      setChildren({});
    }
  }
  useEffect(() => {
    if (!request) return;
    let live = true;
    void queryClient.fetchQuery(treeQuery(ROOT_FOLDER_ID)).then((rows) => {
      if (live) setChildren((all) => ({ ...all, [ROOT_FOLDER_ID]: rows }));
    });
    return () => {
      live = false;
    };
  }, [request, queryClient]);

  const moving = useMemo(
    () => new Set(request?.items.filter((i) => i.isFolder).map((i) => i.id)),
    [request],
  );

  const treeData = useMemo(() => {
    const build = (parentId: string): Node[] | undefined =>
      children[parentId]?.map((folder) => {
        const target = { id: folder.id, path: childPathOf(folder), name: folder.name };
        const blocked = moving.has(folder.id);
        return {
          key: folder.id,
          title: folder.name,
          target,
          disabled: blocked,
          isLeaf: blocked ? true : undefined,
          icon: ({ expanded: open }: { expanded?: boolean }) =>
            open ? <FolderOpenFilled /> : <FolderFilled />,
          children: blocked ? undefined : build(folder.id),
        } satisfies Node;
      });
    return [
      {
        key: ROOT_FOLDER_ID,
        title: t('allFiles'),
        target: root,
        icon: <HomeFilled />,
        children: build(ROOT_FOLDER_ID),
      } satisfies Node,
    ];
  }, [children, moving, root, t]);

  const items = request?.items ?? [];
  const canMove = chosen ? canDropInto(items, chosen) : false;
  const sameFolder = Boolean(chosen && items.length && items.every((i) => i.path === chosen.path));
  const intoSelf = Boolean(
    chosen &&
    items.some((i) => i.isFolder && (i.id === chosen.id || chosen.path.startsWith(childPathOf(i)))),
  );

  const transfer = useMutation({
    mutationFn: ({
      using,
      target,
      mode,
    }: {
      using: MoveCopyRequest;
      target: DropTarget;
      mode: 'move' | 'copy';
    }) => onSubmit(using.items, target, mode),
    onSuccess: (done) => {
      if (done) onClose();
    },
  });
  const busy = transfer.isPending ? transfer.variables.mode : null;
  const run = (mode: 'move' | 'copy') => {
    if (!chosen || !request) return;
    transfer.mutate({ using: request, target: chosen, mode });
  };

  const first = items[0];
  return (
    <Modal
      open={Boolean(request)}
      title={
        items.length === 1 && first
          ? t('moveDialog.titleOne', { name: first.name })
          : t('moveDialog.titleMany', { count: items.length })
      }
      onCancel={onClose}
      destroyOnHidden
      width={520}
      footer={[
        <Button key="cancel" onClick={onClose}>
          {t('confirm.cancel')}
        </Button>,
        request?.modes.copy === false ? null : (
          <Button
            key="copy"
            onClick={() => run('copy')}
            disabled={!chosen || intoSelf || busy === 'move'}
            loading={busy === 'copy'}
            data-testid="move-dialog-copy"
          >
            {t('moveDialog.copy')}
          </Button>
        ),
        request?.modes.move === false ? null : (
          <Button
            key="move"
            type="primary"
            onClick={() => run('move')}
            disabled={!canMove || busy === 'copy'}
            loading={busy === 'move'}
            data-testid="move-dialog-move"
          >
            {t('moveDialog.move')}
          </Button>
        ),
      ]}
    >
      <div className="nb-move" data-testid="move-dialog">
        <div className="nb-move__label">{t('moveDialog.destination')}</div>
        <div className="nb-move__tree">
          <Tree<Node>
            showIcon
            blockNode
            treeData={treeData}
            expandedKeys={expanded}
            onExpand={(keys) => setExpanded(keys.map(String))}
            selectedKeys={chosen ? [chosen.id] : []}
            onSelect={(_, info) => setChosen(info.node.target)}
            loadData={async (node) => {
              const id = String(node.key);
              if (children[id]) return;
              const rows = await queryClient.fetchQuery(treeQuery(id));
              setChildren((all) => ({ ...all, [id]: rows }));
            }}
            height={320}
            data-testid="move-tree"
          />
        </div>
        {chosen ? (
          <div className="nb-move__chosen" data-testid="move-dialog-target">
            {t('moveDialog.chosen', { path: chosen.path })}
          </div>
        ) : null}
        {intoSelf ? (
          <Alert type="warning" showIcon title={t('moveDialog.intoSelf')} />
        ) : sameFolder ? (
          <Alert type="info" showIcon title={t('moveDialog.sameFolder')} />
        ) : null}
      </div>
    </Modal>
  );
}
