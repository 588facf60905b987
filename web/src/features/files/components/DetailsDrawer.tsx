import { FolderOpenOutlined, StarFilled } from '@ant-design/icons';
import { Drawer } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatSize } from '../../../lib/format';
import { sumSizes } from '../listing';
import type { FileItem } from '../types';
import { useFileFormat } from '../../../components/use-format';
import { FileIcon } from '../../../components/FileIcon';
import { useFileParts } from '../../../actions/file-parts';

interface DetailsDrawerProps {
  open: boolean;
  items: FileItem[];
  mobile: boolean;
  onClose: () => void;
  /** The link that opens a folder with an item highlighted. */
  locationLink: (path: string, name?: string) => string;
}

/** Details of the selection (spec / API-NOTES §3): Space toggles it, Esc closes it. */
export function DetailsDrawer({ open, items, mobile, onClose, locationLink }: DetailsDrawerProps) {
  const { t } = useTranslation('files');
  const { detailsSections } = useFileParts();
  const fmt = useFileFormat();
  const item = items.length === 1 ? items[0] : undefined;

  const rows: [string, React.ReactNode, string][] = [];
  if (item) {
    rows.push(['type', fmt.typeName(item), 'details-type']);
    // a folder's size is the bytes below it; a mount's are its owner's, not counted here
    if (!item.mount) {
      rows.push([
        'size',
        <span key="size" title={`${item.size.toLocaleString()} B`}>
          {formatSize(item.size)}
        </span>,
        'details-size',
      ]);
    }
    if (item.isFolder) {
      rows.push([
        'contents',
        t('status.items', { count: item.childrenCount, formatted: fmt.count(item.childrenCount) }),
        'details-contents',
      ]);
    }
    rows.push([
      'location',
      <Link
        key="loc"
        to={locationLink(item.path, item.name)}
        className="nb-details__loc"
        title={t('details.openLocation', { path: item.path })}
      >
        <FolderOpenOutlined /> {item.path}
      </Link>,
      'details-location',
    ]);
    rows.push([
      'uploaded',
      <span key="up">
        {fmt.exact(item.uploadDate)} · {fmt.ago(item.uploadDate)}
      </span>,
      'details-uploaded',
    ]);
    rows.push([
      'modified',
      <span key="mod">
        {fmt.exact(item.updateDate)} · {fmt.ago(item.updateDate)}
      </span>,
      'details-modified',
    ]);
    if (item.trashDate) rows.push(['deleted', fmt.exact(item.trashDate), 'details-deleted']);
    if (item.mount) {
      rows.push([
        'sharedBy',
        item.mount.fileShowName || item.mount.fileUsername,
        'details-shared-by',
      ]);
    }
    rows.push([
      'favorite',
      item.isFavorite ? (
        <span key="fav">
          <StarFilled className="nb-star" /> {t('details.yes')}
        </span>
      ) : (
        t('details.no')
      ),
      'details-favorite',
    ]);
  }

  return (
    <Drawer
      open={open}
      onClose={onClose}
      title={t('details.title')}
      placement={mobile ? 'bottom' : 'right'}
      size={mobile ? 460 : 340}
      mask={mobile}
      destroyOnHidden
      className="nb-details"
      closeIcon={<span aria-label={t('details.close')}>×</span>}
      rootClassName="nb-details-root"
    >
      <div data-testid="details-drawer">
        {item ? (
          <>
            <div className="nb-details__head">
              <FileIcon item={item} size={72} />
              <div className="nb-details__name" data-testid="details-name">
                {item.name}
              </div>
            </div>
            <dl className="nb-details__list">
              {rows.map(([key, value, testId]) => (
                <div key={key} className="nb-details__row">
                  <dt>{t(`details.${key}` as 'details.type')}</dt>
                  <dd data-testid={testId}>{value}</dd>
                </div>
              ))}
            </dl>
            {item.trashDate
              ? null
              : detailsSections.map(({ id, onMounts, Section }) =>
                  item.mount && !onMounts ? null : <Section key={id} file={item} />,
                )}
          </>
        ) : (
          <div className="nb-details__many" data-testid="details-many">
            <div className="nb-details__count">
              {t('status.selected', { count: items.length, formatted: fmt.count(items.length) })}
            </div>
            <div>{formatSize(sumSizes(items))}</div>
          </div>
        )}
      </div>
    </Drawer>
  );
}
