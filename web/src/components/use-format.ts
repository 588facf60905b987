import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import {
  formatCount,
  formatDateTime,
  formatSize,
  parseServerDate,
  relativeTime,
} from '../lib/format';
import { iconKindOf } from '../lib/file-kinds';
import type { FileItem } from '@nimbus/contract';

/** Sizes, times and types in the reader's language. */
export function useFileFormat() {
  const { t, i18n } = useTranslation('files');
  const locale = i18n.language === 'zh_CN' ? 'zh-CN' : 'en-US';

  const ago = useCallback(
    (text: string | undefined): string => {
      const date = parseServerDate(text);
      if (!date) return '';
      const rel = relativeTime(date);
      if (rel.unit === 'justNow') return t('time.justNow');
      return t(`time.${rel.unit}`, { count: rel.value });
    },
    [t],
  );

  const exact = useCallback(
    (text: string | undefined) => formatDateTime(parseServerDate(text)),
    [],
  );

  const typeName = useCallback((item: FileItem) => t(`types.${iconKindOf(item)}`), [t]);

  const count = useCallback((value: number) => formatCount(value, locale), [locale]);

  return useMemo(
    () => ({ ago, exact, size: formatSize, typeName, count }),
    [ago, exact, typeName, count],
  );
}
