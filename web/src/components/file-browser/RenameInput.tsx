import { Input, Tooltip, type InputRef } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { baseNameEnd, nameProblem } from './names';
import type { FileItem } from '@nimbus/contract';

type Named = Pick<FileItem, 'name' | 'isFolder'>;

interface RenameInputProps<T extends Named> {
  item: T;
  /** Resolves with an error text to show, or null when the rename is done. */
  onSubmit: (item: T, name: string) => Promise<string | null>;
  onCancel: () => void;
}

/** F2: the name becomes a field. Enter saves, Esc cancels; the server's refusal shows beside it. */
export function RenameInput<T extends Named>({ item, onSubmit, onCancel }: RenameInputProps<T>) {
  const { t } = useTranslation('files');
  const [value, setValue] = useState(item.name);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const ref = useRef<InputRef>(null);
  const settled = useRef(false);

  useEffect(() => {
    const input = ref.current?.input;
    if (!input) return;
    input.focus();
    input.setSelectionRange(0, baseNameEnd(item.name, item.isFolder));
  }, [item.name, item.isFolder]);

  const submit = async () => {
    if (busy || settled.current) return;
    const name = value;
    if (name === item.name) {
      settled.current = true;
      onCancel();
      return;
    }
    const problem = nameProblem(name);
    if (problem) {
      setError(t(`nameErrors.${problem}`));
      return;
    }
    setBusy(true);
    const failure = await onSubmit(item, name);
    setBusy(false);
    if (failure) {
      setError(failure);
      ref.current?.focus();
      return;
    }
    settled.current = true;
  };

  const stop = (event: React.SyntheticEvent) => event.stopPropagation();

  return (
    <Tooltip open={Boolean(error)} title={error} color="red" placement="bottomLeft">
      <Input
        ref={ref}
        size="small"
        className="nb-rename"
        value={value}
        status={error ? 'error' : undefined}
        disabled={busy}
        aria-label={t('actions.rename')}
        aria-invalid={Boolean(error)}
        data-testid="file-rename-input"
        onChange={(event) => {
          setValue(event.target.value);
          setError(null);
        }}
        onKeyDown={(event) => {
          event.stopPropagation();
          if (event.key === 'Enter') {
            event.preventDefault();
            void submit();
          } else if (event.key === 'Escape') {
            event.preventDefault();
            settled.current = true;
            onCancel();
          }
        }}
        onBlur={() => {
          if (busy) return;
          // leaving a refused name behind gives it up; leaving a new one saves it
          if (error) {
            settled.current = true;
            onCancel();
          } else void submit();
        }}
        onClick={stop}
        onDoubleClick={stop}
        onPointerDown={stop}
        onContextMenu={stop}
      />
    </Tooltip>
  );
}
