import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatShortcut, isMacPlatform } from '../../../actions/shortcuts';
import type { Shortcut } from '../../../actions/types';
import { useFileActions } from '../../../actions/file-registry';
import type { ActionContext, FileAction } from '../actions';

interface Row {
  keys: string[];
  label: string;
}

/** `?`: the file browser's keys, from the same registry the keyboard runs. */
export function ShortcutsDialog({
  open,
  onClose,
  ctx,
}: {
  open: boolean;
  onClose: () => void;
  ctx: ActionContext;
}) {
  const { t } = useTranslation('files');
  const { actions, shortcuts } = useFileActions();
  const key = (shortcut: Shortcut) => formatShortcut(shortcut);
  const rows: Row[] = [];
  const seen = new Map<string, Row>();
  for (const id of shortcuts) {
    const action: FileAction | undefined = actions[id];
    if (!action) continue;
    if (!action.shortcut) continue;
    const label = action.label(t, ctx);
    const known = seen.get(label);
    const keys = key(action.shortcut);
    if (known) {
      if (!known.keys.includes(keys)) known.keys.push(keys);
      continue;
    }
    const row = { keys: [keys], label };
    seen.set(label, row);
    rows.push(row);
  }
  rows.push(
    { keys: ['Backspace', formatAltUp()], label: t('shortcuts.up') },
    { keys: [t('shortcuts.holdSpace')], label: t('shortcuts.peek') },
    { keys: ['Esc'], label: t('shortcuts.escape') },
    { keys: ['?'], label: t('shortcuts.help') },
  );
  return (
    <Modal
      open={open}
      onCancel={onClose}
      footer={null}
      title={t('shortcuts.title')}
      data-testid="shortcuts-dialog"
      destroyOnHidden
    >
      <table className="nb-shortcuts" data-testid="shortcuts-table">
        <tbody>
          {rows.map((row) => (
            <tr key={row.label}>
              <td>{row.label}</td>
              <td>
                {row.keys.map((k) => (
                  <Typography.Text keyboard key={k}>
                    {k}
                  </Typography.Text>
                ))}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </Modal>
  );
}

function formatAltUp(): string {
  return isMacPlatform() ? '⌥↑' : 'Alt+↑';
}
