import {
  AppstoreOutlined,
  ArrowDownOutlined,
  ArrowUpOutlined,
  CheckOutlined,
  SortAscendingOutlined,
  UnorderedListOutlined,
} from '@ant-design/icons';
import { Breadcrumb, Button, Dropdown, Segmented, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { EmptyState } from '../../../components/EmptyState';
import { useTags } from '../../tags/api';
import {
  FILE_VIEWS,
  SORT_PROPS,
  pathSegments,
  type FileViewKind,
  type SortOrder,
  type SortProp,
} from '../view-kinds';

export type ViewMode = 'list' | 'grid';

function readViewMode(params: URLSearchParams): ViewMode {
  return params.get('vmode') === 'list' ? 'list' : 'grid';
}

/** Breadcrumb of the home folder path: "All files / a / b", each crumb a link keeping the view. */
function FolderCrumbs({ path, vmode }: { path: string | null; vmode: ViewMode }) {
  const { t } = useTranslation('files');
  const segments = pathSegments(path);
  const link = (depth: number) => {
    const next = new URLSearchParams({ vmode });
    if (depth > 0) next.set('path', `/${segments.slice(0, depth).join('/')}/`);
    return `/?${next.toString()}`;
  };
  const items = [
    {
      key: 'root',
      title: segments.length ? <Link to={link(0)}>{t('allFiles')}</Link> : t('allFiles'),
    },
    ...segments.map((segment, index) => ({
      key: `${index}`,
      title: index === segments.length - 1 ? segment : <Link to={link(index + 1)}>{segment}</Link>,
    })),
  ];
  return <Breadcrumb items={items} data-testid="files-breadcrumb" />;
}

/**
 * The file browser frame: a toolbar (breadcrumb, view toggle kept in `vmode`, sort kept in
 * `sortableProp`/`order`) above the listing. The listing itself arrives with the files feature;
 * until a view has files it shows that view's empty state.
 */
export function FilesView({ kind }: { kind: FileViewKind }) {
  const { t } = useTranslation('files');
  const [params, setParams] = useSearchParams();
  const config = FILE_VIEWS[kind];
  const vmode = readViewMode(params);
  const sortProp = (SORT_PROPS as string[]).includes(params.get('sortableProp') ?? '')
    ? (params.get('sortableProp') as SortProp)
    : config.defaultSort.prop;
  const order: SortOrder =
    params.get('order') === 'ascending' || params.get('order') === 'descending'
      ? (params.get('order') as SortOrder)
      : config.defaultSort.order;
  const tagId = params.get('tagId');
  const { data: tags } = useTags();
  const tag =
    kind === 'tag' && tagId ? tags?.find((item) => (item.tagId ?? item.id) === tagId) : undefined;

  const update = (changes: Record<string, string>) => {
    const next = new URLSearchParams(params);
    for (const [key, value] of Object.entries(changes)) next.set(key, value);
    setParams(next, { replace: true });
  };

  const sortItems = [
    ...SORT_PROPS.map((prop) => ({
      key: `prop:${prop}`,
      label: <span data-testid={`sort-${prop}`}>{t(`sort.${prop}`)}</span>,
      icon:
        prop === sortProp ? (
          <CheckOutlined />
        ) : (
          <span style={{ width: 14, display: 'inline-block' }} />
        ),
    })),
    { type: 'divider' as const, key: 'divider' },
    ...(['ascending', 'descending'] as const).map((value) => ({
      key: `order:${value}`,
      label: <span data-testid={`sort-${value}`}>{t(`sort.${value}`)}</span>,
      icon:
        value === order ? (
          <CheckOutlined />
        ) : (
          <span style={{ width: 14, display: 'inline-block' }} />
        ),
    })),
  ];

  const emptyKey = kind === 'tag' && !tagId ? 'tagsNone' : kind;
  const title = kind === 'tag' && tag ? tag.name : t(`views.${config.title}`);

  return (
    <section
      className="nb-files"
      data-testid="files-view"
      data-kind={kind}
      data-vmode={vmode}
      aria-label={title}
    >
      <div className="nb-files__toolbar">
        <div className="nb-files__crumb">
          {kind === 'home' ? (
            <FolderCrumbs path={params.get('path')} vmode={vmode} />
          ) : (
            <Breadcrumb
              data-testid="files-breadcrumb"
              items={[
                ...(kind === 'tag' && tag
                  ? [{ key: 'tags', title: <Link to="/tag">{t('views.tags')}</Link> }]
                  : []),
                { key: 'view', title },
              ]}
            />
          )}
        </div>
        <div className="nb-files__tools">
          <Dropdown
            trigger={['click']}
            menu={{
              items: sortItems,
              onClick: ({ key }) => {
                const [field, value] = key.split(':');
                if (field === 'prop' && value) update({ sortableProp: value, order });
                if (field === 'order' && value) update({ sortableProp: sortProp, order: value });
              },
            }}
          >
            <Tooltip title={t('sort.label')}>
              <Button
                icon={<SortAscendingOutlined />}
                data-testid="sort-menu"
                aria-label={`${t('sort.label')}: ${t(`sort.${sortProp}`)}, ${t(`sort.${order}`)}`}
              >
                <span className="nb-hide-narrow">{t(`sort.${sortProp}`)}</span>
                {order === 'ascending' ? <ArrowUpOutlined /> : <ArrowDownOutlined />}
              </Button>
            </Tooltip>
          </Dropdown>
          <Segmented<ViewMode>
            data-testid="view-toggle"
            value={vmode}
            onChange={(value) => update({ vmode: value })}
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
      <div className="nb-files__body">
        <EmptyState
          icon={config.icon}
          title={t(`empty.${emptyKey}.title`)}
          description={t(`empty.${emptyKey}.description`)}
          testId="files-empty"
        />
      </div>
    </section>
  );
}
