import type { PublicFileView, ShareFacts } from '@nimbus/contract';
import { ReloadOutlined } from '@ant-design/icons';
import { Button, Empty, Result, Spin } from 'antd';
import { useCallback, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import type {
  CollectionApi,
  CollectionMode,
} from '../../../components/file-browser/collection-types';
import { FileCollection } from '../../../components/file-browser/FileCollection';
import { NameDialog } from '../../../components/file-browser/NameDialog';
import { SHARE_PERMISSION } from '../browser-actions';
import { pathOf, segmentsOf, useShareCommands } from '../hooks/use-share-commands';
import { useShareHandlers, type ShareMenuRequest } from '../hooks/use-share-handlers';
import { useShareListing } from '../hooks/use-share-listing';
import { useShareSelection } from '../hooks/use-share-selection';
import { ShareActionMenu } from './ShareActionMenu';
import { ShareToolbar } from './ShareToolbar';
import { ShareUploadList } from './ShareUploadList';
import '../../../components/file-browser/file-browser.css';

export interface ShareBrowserProps {
  /** The share's address or id. */
  share: string;
  facts: ShareFacts;
  /** The folder on screen, relative to the shared folder: '/' or '/a/b'. */
  path: string;
  onNavigate: (path: string) => void;
  mobile: boolean;
  /** Extra buttons at the end of the toolbar (Mount). */
  extra?: ReactNode;
  /**
   * Where a file's bytes are: the public share URLs by default; a mounter opens the owner's
   * files through /pre-file (spec §6).
   */
  bytesUrl?: (item: PublicFileView, download: boolean) => string;
  /** The name the first crumb shows (a mount's own name); the shared folder's by default. */
  rootLabel?: string;
}

/**
 * The content of a share as a visitor (or a mounter) sees it, in the drive's own collection:
 * folders to open, text and image previews, downloads and zips, and uploads and changes where
 * the share allows them. Every action comes from the share registry (browser-actions.tsx).
 */
export function ShareBrowser({
  share,
  facts,
  path,
  onNavigate,
  mobile,
  extra,
  bytesUrl,
  rootLabel,
}: ShareBrowserProps) {
  const { t } = useTranslation(['share', 'files']);
  const folder = pathOf(segmentsOf(path));
  // the view mode lives in the URL, as in the drive: a link can open a share as a grid
  const [search, setSearch] = useSearchParams();
  const asked = search.get('vmode');
  const mode: CollectionMode =
    asked === 'list' || asked === 'grid' ? asked : mobile ? 'grid' : 'list';
  const setMode = (next: CollectionMode) => {
    const params = new URLSearchParams(search);
    params.set('vmode', next);
    setSearch(params, { replace: true });
  };
  const [menu, setMenu] = useState<ShareMenuRequest | null>(null);
  const collection = useRef<CollectionApi>(null);

  const listing = useShareListing(share, folder);
  const { query, items } = listing;
  const selection = useShareSelection(folder, items);
  const commands = useShareCommands({
    share,
    facts,
    path: folder,
    onNavigate,
    bytesUrl,
    listing,
    selection,
  });
  const { contextOf, urls } = commands;
  const { setFileInput, setFolderInput, onFilesPicked, onFolderPicked } = commands.pickers;
  const handlers = useShareHandlers({
    mobile,
    listing,
    selection,
    contextOf,
    openMenu: setMenu,
    collection,
  });
  const closeMenu = useCallback(() => setMenu(null), []);
  const canUpload = contextOf([]).can(SHARE_PERMISSION.upload);

  const body =
    query.isPending || (query.isPlaceholderData && items.length === 0) ? (
      <div className="nb-share-browser__center" data-testid="share-loading">
        <Spin />
      </div>
    ) : query.isError && items.length === 0 ? (
      <Result
        status="warning"
        title={t('files:messages.loadFailed')}
        subTitle={query.error instanceof Error ? query.error.message : undefined}
        data-testid="share-load-error"
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void query.refetch()}>
            {t('files:messages.retry')}
          </Button>
        }
      />
    ) : items.length === 0 ? (
      <div
        className="nb-share-browser__center"
        onContextMenu={(event) => {
          event.preventDefault();
          handlers.onBackgroundContextMenu({ x: event.clientX, y: event.clientY });
        }}
      >
        <Empty description={t('page.emptyFolder')} data-testid="share-empty" />
      </div>
    ) : (
      <FileCollection
        apiRef={collection}
        items={items}
        mode={mode}
        mobile={mobile}
        selected={selection.selection.ids}
        focusedId={selection.focusedId}
        hasMore={Boolean(query.hasNextPage)}
        loadingMore={query.isFetchingNextPage}
        thumbnailUrl={urls.thumbnail}
        handlers={handlers}
        label={t('page.contents')}
        testId={mode === 'list' ? 'share-list' : 'share-grid'}
      />
    );

  return (
    <div className="nb-share-browser" data-testid="share-browser" data-path={folder}>
      <ShareToolbar
        path={folder}
        rootLabel={rootLabel ?? facts.fileName}
        onNavigate={onNavigate}
        selectionCtx={contextOf(selection.selectedItems)}
        folderCtx={contextOf([])}
        mode={mode}
        onMode={setMode}
        mobile={mobile}
        extra={extra}
      />
      <div className="nb-share-browser__body">{body}</div>
      {canUpload ? (
        <>
          <input
            ref={setFileInput}
            type="file"
            multiple
            hidden
            data-testid="share-upload-input"
            onChange={onFilesPicked}
          />
          <input
            ref={setFolderInput}
            type="file"
            multiple
            hidden
            {...({ webkitdirectory: '' } as object)}
            onChange={onFolderPicked}
          />
        </>
      ) : null}
      <ShareActionMenu request={menu} onClose={closeMenu} />
      <ShareUploadList items={commands.uploads.items} onClose={commands.uploads.close} />
      <NameDialog request={commands.naming.request} onClose={commands.naming.close} />
      {commands.preview.element}
    </div>
  );
}
