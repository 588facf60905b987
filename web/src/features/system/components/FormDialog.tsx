import { Form, Modal, type FormInstance, type FormProps } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSaving } from '../../../components/use-saving';

/**
 * The add/edit dialog of the admin pages: a vertical form that saves on OK and closes once saved.
 * The form carries `testId` and the save button `${testId}-save`.
 */
export function FormDialog<T>({
  form,
  open,
  title,
  testId,
  initialValues,
  requiredMark,
  width,
  onSave,
  onClose,
  children,
}: {
  form: FormInstance<T>;
  open: boolean;
  title: ReactNode;
  testId: string;
  initialValues: FormProps<T>['initialValues'];
  requiredMark?: FormProps<T>['requiredMark'];
  width?: number;
  /** Saves the validated values; when it fails the dialog stays open. */
  onSave: (values: T) => Promise<void>;
  onClose: () => void;
  children: ReactNode;
}) {
  const { t } = useTranslation('system');
  const { saving, save } = useSaving();

  const submit = async () => {
    const values = await form.validateFields();
    await save(async () => {
      await onSave(values);
      onClose();
    });
  };

  return (
    <Modal
      open={open}
      title={title}
      onCancel={onClose}
      onOk={() => void submit().catch(() => undefined)}
      okText={t('actions.save')}
      cancelText={t('actions.cancel')}
      confirmLoading={saving}
      destroyOnHidden
      width={width}
      okButtonProps={{ 'data-testid': `${testId}-save` }}
    >
      <Form
        form={form}
        layout="vertical"
        requiredMark={requiredMark}
        preserve={false}
        // The form instance outlives the dialog: without a clean store, the next opening would
        // keep the last one's values over its own initial values.
        clearOnDestroy
        data-testid={testId}
        initialValues={initialValues}
      >
        {children}
      </Form>
    </Modal>
  );
}
