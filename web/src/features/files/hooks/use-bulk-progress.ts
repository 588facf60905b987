import { App } from 'antd';
import { useTranslation } from 'react-i18next';
import { BULK_IDS } from '../api';
import { useFileFormat } from '../../../components/use-format';

export type BulkKind = 'trash' | 'restore' | 'sweep' | 'move' | 'copy';

/** A toast that follows a bulk operation sent in several requests (a large selection). */
export function useBulkProgress() {
  const { t } = useTranslation('files');
  const { message } = App.useApp();
  const fmt = useFileFormat();
  return (kind: BulkKind) => {
    const key = `bulk-${kind}-${Date.now()}`;
    return {
      onProgress: (done: number, all: number) => {
        if (all <= BULK_IDS || done >= all) return;
        void message.loading({
          key,
          content: t(`progress.${kind}`, { done: fmt.count(done), total: fmt.count(all) }),
          duration: 0,
        });
      },
      end: () => message.destroy(key),
    };
  };
}
