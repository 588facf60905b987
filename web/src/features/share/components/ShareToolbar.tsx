import { AppstoreOutlined, FolderOpenOutlined, UnorderedListOutlined } from '@ant-design/icons';
import { Breadcrumb, Button, Dropdown, Segmented, Space } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { actionIcon, runAction, visibleChildren } from '../../../actions/registry';
import { SHARE_MENUS, visibleShareActions, type ShareBrowserContext } from '../browser-actions';
import type { CollectionMode } from '../../../components/file-browser/collection-types';
import { pathOf, segmentsOf } from '../hooks/use-share-commands';

interface ShareToolbarProps {
  /** The folder on screen: '/' or '/a/b'. */
  path: string;
  rootLabel: string;
  onNavigate: (path: string) => void;
  /** The selection's context, and the folder's (nothing selected). */
  selectionCtx: ShareBrowserContext;
  folderCtx: ShareBrowserContext;
  mode: CollectionMode;
  onMode: (mode: CollectionMode) => void;
  mobile: boolean;
  extra?: ReactNode;
}

/** Where the visitor is, and what they can do here: the selection's and the folder's actions. */
export function ShareToolbar({
  path,
  rootLabel,
  onNavigate,
  selectionCtx,
  folderCtx,
  mode,
  onMode,
  mobile,
  extra,
}: ShareToolbarProps) {
  const { t } = useTranslation(['share', 'common']);
  const segments = segmentsOf(path);
  const count = selectionCtx.items.length;
  const folderActions = visibleShareActions(SHARE_MENUS.folder, folderCtx);
  const uploadAction = folderActions.find((action) => action.id === 'upload');
  const newFolderAction = folderActions.find((action) => action.id === 'newFolder');
  const uploadChildren = uploadAction ? visibleChildren(uploadAction, folderCtx) : [];

  const crumbs = [
    {
      title: (
        <a onClick={() => onNavigate('/')} data-testid="share-crumb-root">
          <FolderOpenOutlined /> {rootLabel}
        </a>
      ),
    },
    ...segments.map((name, i) => ({
      title:
        i === segments.length - 1 ? (
          <span>{name}</span>
        ) : (
          <a onClick={() => onNavigate(pathOf(segments.slice(0, i + 1)))}>{name}</a>
        ),
    })),
  ];

  return (
    <div className="nb-share-browser__toolbar">
      <Breadcrumb
        items={crumbs}
        className="nb-share-browser__crumbs"
        data-testid="share-breadcrumb"
      />
      <Space wrap size={8}>
        {count > 0 ? (
          <span className="nb-share-browser__count">{t('page.selected', { count })}</span>
        ) : null}
        {count > 0
          ? visibleShareActions(SHARE_MENUS.selection, selectionCtx).map((action) => (
              <Button
                key={action.id}
                danger={action.danger}
                icon={actionIcon(action, selectionCtx)}
                onClick={() => runAction(action, selectionCtx)}
                aria-label={action.label(t, selectionCtx)}
                data-testid={action.id === 'zip' ? 'share-zip' : `share-${action.id}`}
              >
                {mobile ? null : action.label(t, selectionCtx)}
              </Button>
            ))
          : null}
        {newFolderAction ? (
          <Button
            icon={actionIcon(newFolderAction, folderCtx)}
            onClick={() => runAction(newFolderAction, folderCtx)}
            aria-label={newFolderAction.label(t, folderCtx)}
            data-testid="share-new-folder"
          >
            {mobile ? null : newFolderAction.label(t, folderCtx)}
          </Button>
        ) : null}
        {uploadAction ? (
          <Dropdown
            trigger={['click']}
            menu={{
              items: uploadChildren.map((child) => ({
                key: child.id,
                icon: actionIcon(child, folderCtx),
                label: (
                  <span
                    data-testid={
                      child.id === 'uploadFolder' ? 'share-upload-folder' : 'share-upload-files'
                    }
                  >
                    {child.label(t, folderCtx)}
                  </span>
                ),
              })),
              onClick: ({ key }) => {
                const child = uploadChildren.find((c) => c.id === key);
                if (child) runAction(child, folderCtx);
              },
            }}
          >
            <Button
              type="primary"
              icon={actionIcon(uploadAction, folderCtx)}
              data-testid="share-upload"
            >
              {uploadAction.label(t, folderCtx)}
            </Button>
          </Dropdown>
        ) : null}
        {extra}
        <Segmented
          value={mode}
          onChange={(value) => onMode(value as CollectionMode)}
          options={[
            { value: 'list', icon: <UnorderedListOutlined />, title: t('page.list') },
            { value: 'grid', icon: <AppstoreOutlined />, title: t('page.grid') },
          ]}
          data-testid="share-view-toggle"
        />
      </Space>
    </div>
  );
}
