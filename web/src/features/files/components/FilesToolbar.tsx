import {
  AppstoreOutlined,
  ArrowDownOutlined,
  ArrowLeftOutlined,
  ArrowUpOutlined,
  CheckOutlined,
  CloseOutlined,
  EllipsisOutlined,
  HomeOutlined,
  PlusOutlined,
  SortAscendingOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Breadcrumb, Button, Dropdown, Segmented, Tooltip } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { FILE_AUTHORITY } from '../../../actions/authorities';
import { isEnabled, isVisible } from '../../../actions/registry';
import { useFileParts } from '../../../actions/file-parts';
import { useFileActions } from '../../../actions/file-registry';
import { FILE_ACTIONS, type ActionContext, type FileAction, type ViewMode } from '../actions';
import type { DropTarget } from '../../../components/file-browser/drag';
import { useFileFormat } from '../../../components/use-format';
import { pathSegments, SORT_PROPS, type SortOrder, type SortProp } from '../../../lib/view-kinds';
import { useActionMenuItems } from './ActionMenu';
import { useFolderDrop } from '../../../components/file-browser/collection-item';
import type { CollectionHandlers } from '../../../components/file-browser/collection-types';

interface CrumbProps {
  target: DropTarget;
  to: string | null;
  children: ReactNode;
  handlers: Pick<CollectionHandlers, 'canDropOn' | 'onDropOn'>;
  testId: string;
}

/** One breadcrumb segment: a link, and a place to drop dragged items. */
function Crumb({ target, to, children, handlers, testId }: CrumbProps) {
  const { isOver, props } = useFolderDrop(target, handlers);
  const className = `nb-crumb${isOver ? ' is-drop' : ''}`;
  return to ? (
    <Link to={to} className={className} data-testid={testId} {...props}>
      {children}
    </Link>
  ) : (
    <span className={className} data-testid={testId} aria-current="page" {...props}>
      {children}
    </span>
  );
}

interface FolderCrumbsProps {
  path: string;
  linkTo: (path: string) => string;
  handlers: Pick<CollectionHandlers, 'canDropOn' | 'onDropOn'>;
}

/** "All files / a / b": each crumb opens its folder and takes dropped items. */
function FolderCrumbs({ path, linkTo, handlers }: FolderCrumbsProps) {
  const { t } = useTranslation('files');
  const segments = pathSegments(path);
  const folderPath = (depth: number) =>
    depth === 0 ? '/' : `/${segments.slice(0, depth).join('/')}/`;
  const items = [
    {
      key: 'root',
      title: (
        <Crumb
          target={{ id: 'path:/', path: '/', name: t('allFiles') }}
          to={segments.length ? linkTo('/') : null}
          handlers={handlers}
          testId="crumb-root"
        >
          <HomeOutlined /> <span>{t('allFiles')}</span>
        </Crumb>
      ),
    },
    ...segments.map((segment, index) => {
      const p = folderPath(index + 1);
      return {
        key: p,
        title: (
          <Crumb
            target={{ id: `path:${p}`, path: p, name: segment }}
            to={index === segments.length - 1 ? null : linkTo(p)}
            handlers={handlers}
            testId={`crumb-${index + 1}`}
          >
            {segment}
          </Crumb>
        ),
      };
    }),
  ];
  return <Breadcrumb items={items} data-testid="files-breadcrumb" />;
}

interface FilesToolbarProps {
  ctx: ActionContext;
  title: ReactNode;
  /** The home view shows the folder path; other views their title. */
  folderPath: string | null;
  parentLink: string | null;
  linkTo: (path: string) => string;
  mobile: boolean;
  handlers: Pick<CollectionHandlers, 'canDropOn' | 'onDropOn'>;
  run: (action: FileAction) => void;
}

/** Actions on the selection shown as buttons (the rest sit in the "more" menu). */
const SELECTION_BUTTONS: (keyof typeof FILE_ACTIONS)[] = [
  'download',
  'moveCopy',
  'copy',
  'delete',
  'restore',
  'deleteForever',
];

export function FilesToolbar({
  ctx,
  title,
  folderPath,
  parentLink,
  linkTo,
  mobile,
  handlers,
  run,
}: FilesToolbarProps) {
  const { t } = useTranslation('files');
  const fmt = useFileFormat();
  const menuItems = useActionMenuItems();
  const { menuFor } = useFileActions();
  const { UploadButton } = useFileParts();
  const { view } = ctx;
  const selecting = ctx.items.length > 0;

  const sortItems = [
    ...SORT_PROPS.map((prop) => ({
      key: `prop:${prop}`,
      label: <span data-testid={`sort-${prop}`}>{t(`sort.${prop}`)}</span>,
      icon: prop === view.sortProp ? <CheckOutlined /> : <span className="nb-menu-spacer" />,
    })),
    { type: 'divider' as const, key: 'divider' },
    ...(['ascending', 'descending'] as const).map((value) => ({
      key: `order:${value}`,
      label: <span data-testid={`sort-${value}`}>{t(`sort.${value}`)}</span>,
      icon: value === view.order ? <CheckOutlined /> : <span className="nb-menu-spacer" />,
    })),
  ];

  const buttonFor = (id: keyof typeof FILE_ACTIONS) => {
    const action: FileAction = FILE_ACTIONS[id];
    if (!isVisible(action, ctx)) return null;
    const label = action.label(t, ctx);
    const icon = typeof action.icon === 'function' ? action.icon(ctx) : action.icon;
    return (
      <Tooltip key={id} title={mobile ? label : undefined}>
        <Button
          icon={icon}
          danger={action.danger}
          disabled={!isEnabled(action, ctx)}
          onClick={() => run(action)}
          data-testid={`toolbar-${id}`}
          aria-label={label}
        >
          {mobile ? null : label}
        </Button>
      </Tooltip>
    );
  };

  return (
    <div className="nb-files__toolbar nb-fb-toolbar">
      <div className="nb-files__crumb">
        {parentLink ? (
          <Tooltip title={t('actions.back')}>
            <Link
              to={parentLink}
              className="nb-fb-back"
              aria-label={t('actions.back')}
              data-testid="folder-up"
            >
              <ArrowLeftOutlined />
            </Link>
          </Tooltip>
        ) : null}
        {folderPath !== null ? (
          <FolderCrumbs path={folderPath} linkTo={linkTo} handlers={handlers} />
        ) : (
          title
        )}
      </div>
      <div className="nb-files__tools">
        {selecting ? (
          <div className="nb-selbar" data-testid="selection-bar">
            <Button
              type="text"
              icon={<CloseOutlined />}
              onClick={() => ctx.cmd.deselect()}
              aria-label={t('actions.deselect')}
              data-testid="selection-clear"
            />
            <span className="nb-selbar__count" data-testid="selection-count">
              {t('status.selected', {
                count: ctx.items.length,
                formatted: fmt.count(ctx.items.length),
              })}
            </span>
            {SELECTION_BUTTONS.map(buttonFor)}
            <Dropdown
              trigger={['click']}
              menu={{ items: menuItems(menuFor(ctx), ctx, run), className: 'nb-action-menu' }}
            >
              <Button
                icon={<EllipsisOutlined />}
                aria-label={t('actions.more')}
                data-testid="selection-more"
              />
            </Dropdown>
          </div>
        ) : (
          <>
            {view.writable ? (
              <>
                {isVisible(FILE_ACTIONS.new, ctx) ? (
                  <Dropdown
                    trigger={['click']}
                    menu={{
                      items: menuItems.actions(
                        (() => {
                          const [folder, ...files] = FILE_ACTIONS.new.children();
                          return folder ? [folder, '-' as const, ...files] : files;
                        })(),
                        ctx,
                        run,
                      ),
                      className: 'nb-action-menu',
                    }}
                  >
                    <Button
                      icon={<PlusOutlined />}
                      data-testid="new-button"
                      aria-label={t('actions.new')}
                    >
                      {mobile ? null : t('actions.new')}
                    </Button>
                  </Dropdown>
                ) : null}
                {ctx.can(FILE_AUTHORITY.upload) ? <UploadButton /> : null}
              </>
            ) : null}
            {view.kind === 'trash' ? buttonFor('emptyTrash') : null}
          </>
        )}
        <Dropdown
          trigger={['click']}
          menu={{
            items: sortItems,
            onClick: ({ key }) => {
              const [field, value] = key.split(':');
              if (field === 'prop' && value) ctx.cmd.setSort(value as SortProp, view.order);
              if (field === 'order' && value) ctx.cmd.setSort(view.sortProp, value as SortOrder);
            },
          }}
        >
          <Tooltip title={t('sort.label')}>
            <Button
              icon={<SortAscendingOutlined />}
              data-testid="sort-menu"
              aria-label={`${t('sort.label')}: ${t(`sort.${view.sortProp}`)}, ${t(`sort.${view.order}`)}`}
            >
              <span className="nb-hide-narrow">{t(`sort.${view.sortProp}`)}</span>
              {view.order === 'ascending' ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
            </Button>
          </Tooltip>
        </Dropdown>
        <Segmented<ViewMode>
          data-testid="view-toggle"
          value={view.vmode}
          onChange={(value) => ctx.cmd.setViewMode(value)}
          options={[
            {
              value: 'grid',
              icon: <AppstoreOutlined data-testid="view-grid" aria-label={t('view.grid')} />,
              title: t('view.grid'),
              tooltip: t('view.grid'),
            },
            {
              value: 'list',
              icon: <UnorderedListOutlined data-testid="view-list" aria-label={t('view.list')} />,
              title: t('view.list'),
              tooltip: t('view.list'),
            },
          ]}
        />
      </div>
    </div>
  );
}
