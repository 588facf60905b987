import { useMutation } from '@tanstack/react-query';
import { Form, Input, Modal, type InputRef } from 'antd';
import { useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { baseNameEnd, nameProblem } from './names';

export interface NameDialogRequest {
  title: string;
  icon?: ReactNode;
  initialName: string;
  isFolder: boolean;
  okText: string;
  /** Creates the item; a rejection's message shows under the field. */
  submit: (name: string) => Promise<void>;
}

/** "New folder" / "New document": a validated name, the server's refusal shown in place. */
export function NameDialog({
  request,
  onClose,
}: {
  request: NameDialogRequest | null;
  onClose: () => void;
}) {
  const { t } = useTranslation('files');
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const input = useRef<InputRef>(null);

  // a new request starts from its own name
  const [shown, setShown] = useState(request);
  if (shown !== request) {
    setShown(request);
    if (request) {
      setName(request.initialName);
      setError(null);
    }
  }

  const creating = useMutation({
    mutationFn: ({ using, name: wanted }: { using: NameDialogRequest; name: string }) =>
      using.submit(wanted),
    onSuccess: () => onClose(),
    onError: (failure) => {
      setError(failure instanceof Error ? failure.message : String(failure));
      input.current?.focus();
    },
  });

  const submit = () => {
    if (!request || creating.isPending) return;
    const problem = nameProblem(name);
    if (problem) {
      setError(t(`nameErrors.${problem}`));
      return;
    }
    creating.mutate({ using: request, name });
  };

  return (
    <Modal
      open={Boolean(request)}
      title={
        <span className="nb-dialog-title">
          {request?.icon}
          {request?.title}
        </span>
      }
      okText={request?.okText}
      cancelText={t('confirm.cancel')}
      onOk={submit}
      onCancel={onClose}
      confirmLoading={creating.isPending}
      destroyOnHidden
      width={420}
      okButtonProps={{ 'data-testid': 'name-dialog-ok' }}
      afterOpenChange={(open) => {
        const element = input.current?.input;
        if (!open || !element || !request) return;
        element.focus();
        element.setSelectionRange(0, baseNameEnd(element.value, request.isFolder));
      }}
    >
      <Form layout="vertical" onFinish={submit} requiredMark={false} data-testid="name-dialog">
        <Form.Item
          label={t('newFile.name')}
          validateStatus={error ? 'error' : undefined}
          help={error ?? undefined}
          style={{ marginBottom: 8 }}
        >
          <Input
            ref={input}
            value={name}
            maxLength={1024}
            onChange={(event) => {
              setName(event.target.value);
              setError(null);
            }}
            data-testid="name-input"
            aria-invalid={Boolean(error)}
          />
        </Form.Item>
      </Form>
    </Modal>
  );
}
