import { CloudUploadOutlined } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import { useUploadStore } from '../store';
import { displayFolder } from '../use-upload';

/** spec §2: 'upload files to the current directory' while files are dragged over the page. */
export function DropOverlay({ path }: { path: string }) {
  const { t } = useTranslation('upload');
  const dragging = useUploadStore((s) => s.dragging);
  if (!dragging) return null;
  return (
    <div className="nb-upload-drop" data-testid="upload-drop-overlay" aria-live="polite">
      <div className="nb-upload-drop__card">
        <CloudUploadOutlined className="nb-upload-drop__icon" />
        <strong>{t('drop.title')}</strong>
        <span>{t('drop.hint', { path: displayFolder(path, t('rootFolder')) })}</span>
      </div>
    </div>
  );
}
