import { CloseOutlined, CopyOutlined, ScissorOutlined, SnippetsOutlined } from '@ant-design/icons';
import { Button, Popover, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { clearClipboard, clipboardMode, removeFromClipboard, useFileClipboard } from '../clipboard';
import { FileIcon } from '../../../components/FileIcon';

/** Entries the tray's list shows; a whole folder may be on the clipboard. */
const SHOWN = 200;

interface ClipboardTrayProps {
  /** The folder on screen takes a paste. */
  canPaste: boolean;
  onPaste: () => void;
}

/** The visible file clipboard (API-NOTES §3 "FileClipboard" tray): what was copied or cut, and Paste. */
export function ClipboardTray({ canPaste, onPaste }: ClipboardTrayProps) {
  const { t } = useTranslation('files');
  const entries = useFileClipboard();
  if (entries.length === 0) return null;
  const mode = clipboardMode(entries);
  const list = (
    <ul className="nb-clip__list" data-testid="clipboard-list">
      {entries.slice(0, SHOWN).map((entry) => (
        <li key={entry.id}>
          <FileIcon item={{ ...entry, suffix: '' }} size={18} />
          <span className="nb-clip__name" title={`${entry.path}${entry.name}`}>
            {entry.name}
          </span>
          <Button
            type="text"
            size="small"
            icon={<CloseOutlined />}
            aria-label={t('clipboard.remove', { name: entry.name })}
            onClick={() => removeFromClipboard([entry.id])}
          />
        </li>
      ))}
      {entries.length > SHOWN ? (
        <li className="nb-clip__more">
          {t('clipboard.more', {
            count: entries.length - SHOWN,
            formatted: (entries.length - SHOWN).toLocaleString(),
          })}
        </li>
      ) : null}
    </ul>
  );
  const paste = (
    <Button
      type="primary"
      size="small"
      icon={<SnippetsOutlined />}
      disabled={!canPaste}
      onClick={onPaste}
      data-testid="clipboard-paste"
    >
      {mode === 'cut' ? t('clipboard.move') : t('clipboard.paste')}
    </Button>
  );
  return (
    <div
      className={`nb-clip nb-clip--${mode}`}
      data-testid="clipboard-tray"
      data-mode={mode}
      role="region"
      aria-label={t('clipboard.title')}
    >
      <Popover
        content={list}
        title={t('clipboard.title')}
        trigger={['hover', 'click']}
        placement="topLeft"
      >
        <button type="button" className="nb-clip__summary" data-testid="clipboard-summary">
          {mode === 'cut' ? <ScissorOutlined /> : <CopyOutlined />}
          <span>
            {mode === 'cut'
              ? t('clipboard.cutMode', { count: entries.length })
              : t('clipboard.copyMode', { count: entries.length })}
          </span>
          <span className="nb-clip__names">
            {entries
              .slice(0, 3)
              .map((e) => e.name)
              .join(', ')}
          </span>
        </button>
      </Popover>
      <div className="nb-clip__actions">
        {canPaste ? paste : <Tooltip title={t('clipboard.cannotPasteHere')}>{paste}</Tooltip>}
        <Button size="small" type="text" onClick={clearClipboard} data-testid="clipboard-clear">
          {t('clipboard.clear')}
        </Button>
      </div>
    </div>
  );
}
