import { ApiOutlined } from '@ant-design/icons';
import type { AnswerOf, BodyIn, Endpoint } from '@nimbus/contract';
import { App, Alert, Button, Form, Skeleton, type FormInstance } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { useConfig, useSaveConfig } from '../api';

interface ConfigTabProps<Read extends Endpoint, Save extends Endpoint> {
  name: string;
  /** The endpoint that answers the configuration. */
  read: Read;
  /** The endpoint that saves it. */
  save: Save;
  description: ReactNode;
  /** Turns the form values into what the server stores (defaults to the values as they are). */
  toServer?: (values: AnswerOf<Read>) => BodyIn<Save>;
  fromServer?: (value: AnswerOf<Read>) => AnswerOf<Read>;
  children: (form: FormInstance<AnswerOf<Read>>) => ReactNode;
  extraActions?: (form: FormInstance<AnswerOf<Read>>) => ReactNode;
  testId: string;
}

/**
 * An admin configuration tab: reads the config, edits it in a form and saves it back.
 * When the server does not offer the configuration the tab says so instead of a form.
 */
export function ConfigTab<Read extends Endpoint, Save extends Endpoint>({
  name,
  read,
  save,
  description,
  toServer,
  fromServer,
  children,
  extraActions,
  testId,
}: ConfigTabProps<Read, Save>) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const config = useConfig(name, read);
  const saving = useSaveConfig(name, save);
  const [form] = Form.useForm<AnswerOf<Read>>();

  useEffect(() => {
    if (config.data) form.setFieldsValue(fromServer ? fromServer(config.data) : config.data);
  }, [config.data, form, fromServer]);

  if (config.isPending) return <Skeleton active paragraph={{ rows: 5 }} />;
  if (config.isError) {
    return (
      <div data-testid={testId} style={{ padding: '32px 0' }}>
        <EmptyState
          icon={<ApiOutlined />}
          title={t('config.unavailable')}
          description={t('config.unavailableHint')}
          testId={`${testId}-unavailable`}
        >
          <Button onClick={() => void config.refetch()}>{t('actions.retry')}</Button>
        </EmptyState>
      </div>
    );
  }

  const onFinish = async (values: AnswerOf<Read>) => {
    try {
      // without `toServer` the form's values are the body as they are
      await saving.mutateAsync(toServer ? toServer(values) : (values as BodyIn<Save>));
      void message.success(t('config.saved'));
    } catch {
      // the client toasted the reason
    }
  };

  return (
    <div data-testid={testId} style={{ maxWidth: 640 }}>
      <Alert type="info" showIcon title={description} style={{ marginBottom: 20 }} />
      <Form<AnswerOf<Read>> form={form} layout="vertical" onFinish={(v) => void onFinish(v)}>
        {children(form)}
        <div style={{ display: 'flex', gap: 8 }}>
          <Button type="primary" htmlType="submit" loading={saving.isPending}>
            {t('actions.save')}
          </Button>
          {extraActions?.(form)}
        </div>
      </Form>
    </div>
  );
}
