import { Spin } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatSize } from '../../../lib/format';
import { sumSizes } from '../listing';
import type { FileItem } from '../types';
import { useFileFormat } from '../../../components/use-format';

interface FilesStatusProps {
  items: FileItem[];
  total: number;
  loadedAll: boolean;
  selectedItems: FileItem[];
  selectingAll: { loaded: number; total: number } | null;
}

/** The status line under the listing: what is loaded, its size, and the selection. */
export function FilesStatus({
  items,
  total,
  loadedAll,
  selectedItems,
  selectingAll,
}: FilesStatusProps) {
  const { t } = useTranslation('files');
  const fmt = useFileFormat();
  const shownTotal = loadedAll ? items.length : total;
  return (
    <div className="nb-fb__status" data-testid="files-status" aria-live="polite">
      <span>
        {loadedAll
          ? `${t('status.allLoaded')} · ${t('status.items', { count: shownTotal, formatted: fmt.count(shownTotal) })}`
          : t('status.loaded', { loaded: fmt.count(items.length), total: fmt.count(total) })}
        {' · '}
        {formatSize(sumSizes(items))}
      </span>
      {selectingAll ? (
        <span data-testid="files-status-selecting" aria-busy="true">
          <Spin size="small" />{' '}
          {t('status.selecting', {
            loaded: fmt.count(selectingAll.loaded),
            total: fmt.count(selectingAll.total),
          })}
        </span>
      ) : selectedItems.length ? (
        <span data-testid="files-status-selection">
          {t('status.selected', {
            count: selectedItems.length,
            formatted: fmt.count(selectedItems.length),
          })}{' '}
          · {formatSize(sumSizes(selectedItems))}
        </span>
      ) : null}
    </div>
  );
}
