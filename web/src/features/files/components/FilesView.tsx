import { useFileParts } from '../../../actions/file-parts';
import { useQueryClient } from '@tanstack/react-query';
import { Breadcrumb } from 'antd';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { runAction } from '../../../actions/registry';
import { useAuthorityCheck } from '../../../actions/authorities';
import { ApiError } from '../../../api/client';
import { useAppStore } from '../../../stores/app';
import { pasteAuthority, type ActionContext, type FileAction, type ViewState } from '../actions';
import { isListable, useFolderId } from '../api';
import { useFileClipboard } from '../clipboard';
import { parentFolderPath } from '../../../lib/folder-path';
import { useCollectionHandlers } from '../hooks/use-collection-handlers';
import { useCurrentFolderSync } from '../hooks/use-current-folder-sync';
import { useFileCommands } from '../hooks/use-file-commands';
import { useFileDialogs } from '../hooks/use-file-dialogs';
import { useFileDrag } from '../hooks/use-file-drag';
import { useFileSelection } from '../hooks/use-file-selection';
import { useFileShortcuts } from '../hooks/use-file-shortcuts';
import { useHighlightParam } from '../hooks/use-highlight-param';
import { useViewUrl } from '../hooks/use-view-url';
import { installLiveListings } from '../live';
import { useListing } from '../use-listing';
import type { FileViewKind } from '../../../lib/view-kinds';
import { ClipboardTray } from './ClipboardTray';
import type { CollectionApi } from '../../../components/file-browser/collection-types';
import { FileCollection } from '../../../components/file-browser/FileCollection';
import { FileDialogs } from './FileDialogs';
import { FilesBody } from './FilesBody';
import { FilesStatus } from './FilesStatus';
import { FilesToolbar } from './FilesToolbar';
import { ShortcutsDialog } from './ShortcutsDialog';
import '../../../components/file-browser/file-browser.css';

installLiveListings();

/**
 * The file browser: the home folder tree and the drive-wide views (recent, type views,
 * favorites, trash). Folder, sort and view mode live in the URL; the listing in TanStack Query;
 * selection and dialogs in their hooks. Every action comes from one registry
 * (app/action-registry.ts, read through FileActionsContext), run through the commands of
 * useFileCommands.
 */
export function FilesView({ kind }: { kind: FileViewKind }) {
  const { t } = useTranslation('files');
  const queryClient = useQueryClient();
  const mobile = useAppStore((s) => s.device === 'mobile');
  const clipboard = useFileClipboard();
  const can = useAuthorityCheck();
  const collection = useRef<CollectionApi>(null);
  const navigate = useNavigate();
  const [shortcutsOpen, setShortcutsOpen] = useState(false);

  // ---- what is shown: the URL, the listing, the tag -----------------------------------------
  const view = useViewUrl(kind);
  const { isHome, path, listingKey, config, tagId } = view;
  const listable = isListable(kind) && (kind !== 'tag' || Boolean(tagId));
  const folderId = useFolderId(path, isHome, queryClient);
  const listing = useListing(listingKey, listable);
  const { query, items, total } = listing;
  const folderMissing =
    isHome &&
    ((folderId.error instanceof ApiError && folderId.error.code === 13) ||
      (query.error instanceof ApiError && query.error.code === 13));
  const writable = isHome && !folderMissing;
  const tagName = useFileParts().useTagName(kind === 'tag' ? tagId : null);
  const tag = tagName === undefined ? undefined : { name: tagName };
  useCurrentFolderSync(isHome, path, folderId.data, writable, listingKey);

  // ---- what the user has in hand: selection, dialogs, commands ------------------------------
  const viewId = `${kind}|${path}`;
  const sel = useFileSelection(viewId, listingKey, listing);
  const dialogs = useFileDialogs(viewId);
  useHighlightParam(view, listing, sel, collection);
  const { cmd, transfer } = useFileCommands({
    view,
    writable,
    can,
    listing,
    selection: sel,
    dialogs,
    clipboard,
    collection,
  });

  const { vmode, sortProp, order } = view;
  const viewState: ViewState = { kind, path, writable, vmode, sortProp, order, total };
  const ctx: ActionContext = { items: sel.selectedItems, view: viewState, clipboard, cmd, can };
  const run = (action: FileAction, context: ActionContext = ctx) => runAction(action, context);

  // ---- the ways in: keys, drag and drop, the listing's events -------------------------------
  useFileShortcuts({
    ctx,
    run,
    menuOpen: Boolean(dialogs.menu),
    closeMenu: () => dialogs.setMenu(null),
    detailsOpen: dialogs.detailsOpen,
    closeDetails: () => dialogs.setDetailsOpen(false),
    selectingAll: sel.selectAllRunning,
    goUp: isHome && path !== '/' ? () => void navigate(view.linkTo(parentFolderPath(path))) : null,
    showShortcuts: () => setShortcutsOpen(true),
  });
  const drag = useFileDrag({ ctx, selection: sel, transfer });
  const handlers = useCollectionHandlers({
    ctx,
    mobile,
    listing,
    selection: sel,
    dialogs,
    drag,
    sortBy: view.sortBy,
    collection,
  });

  // ---- rendering ----------------------------------------------------------------------------
  const title = kind === 'tag' && tag ? tag.name : t(`views.${config.title}`);
  const titleNode = (
    <Breadcrumb
      data-testid="files-breadcrumb"
      items={[
        ...(kind === 'tag' && tag
          ? [{ key: 'tags', title: <Link to="/tag">{t('views.tags')}</Link> }]
          : []),
        {
          key: 'view',
          title: (
            <span className="nb-view-title">
              {config.icon} {title}
            </span>
          ),
        },
      ]}
    />
  );

  return (
    <section
      className="nb-files nb-fb"
      data-testid="files-view"
      data-kind={kind}
      data-vmode={vmode}
      data-path={isHome ? path : undefined}
      aria-label={title}
    >
      <FilesToolbar
        ctx={ctx}
        title={titleNode}
        folderPath={isHome ? path : null}
        parentLink={isHome && path !== '/' ? view.linkTo(parentFolderPath(path)) : null}
        linkTo={(p) => view.linkTo(p)}
        mobile={mobile}
        handlers={handlers}
        run={(action) => run(action)}
      />
      <div className="nb-fb__body">
        <FilesBody
          kind={kind}
          config={config}
          tagId={tagId}
          listing={listing}
          listable={listable}
          folderMissing={folderMissing}
          writable={writable}
          homeLink={view.linkTo('/')}
          onBackgroundContextMenu={handlers.onBackgroundContextMenu}
        >
          <FileCollection
            apiRef={collection}
            items={items}
            mode={vmode}
            mobile={mobile}
            selected={sel.selection.ids}
            focusedId={sel.focusedId}
            highlightId={sel.highlightId}
            renamingId={sel.renamingId}
            hasMore={Boolean(query.hasNextPage)}
            loadingMore={query.isFetchingNextPage}
            showLocation={view.flat}
            trash={kind === 'trash'}
            sortProp={sortProp}
            order={order}
            draggable={drag.draggable}
            handlers={handlers}
            label={t('a11y.list')}
            locationLink={view.locationLink}
          />
        </FilesBody>
      </div>
      <ClipboardTray
        canPaste={writable && can(pasteAuthority(clipboard))}
        onPaste={() => cmd.paste()}
      />
      {listable && query.data ? (
        <FilesStatus
          items={items}
          total={total}
          loadedAll={!query.hasNextPage}
          selectedItems={sel.selectedItems}
          selectingAll={sel.selectingAll}
        />
      ) : null}
      <FileDialogs
        dialogs={dialogs}
        selectedItems={sel.selectedItems}
        mobile={mobile}
        transfer={transfer}
        onTransferred={sel.clear}
        locationLink={(folder, name) => view.linkTo(folder, name)}
      />
      <ShortcutsDialog open={shortcutsOpen} onClose={() => setShortcutsOpen(false)} ctx={ctx} />
    </section>
  );
}
