import { ApiOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Alert, Button, Form, Skeleton, type FormInstance } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { saveConfig, settingsKeys, useConfig } from '../api';

interface ConfigTabProps<T> {
  name: string;
  path: string;
  description: ReactNode;
  /** Turns the form values into what the server stores (defaults to the values as they are). */
  toServer?: (values: T) => unknown;
  fromServer?: (value: T) => T;
  children: (form: FormInstance<T>) => ReactNode;
  extraActions?: (form: FormInstance<T>) => ReactNode;
  testId: string;
}

/**
 * An admin configuration tab: reads the config, edits it in a form and saves it back.
 * When the server does not offer the configuration the tab says so instead of a form.
 */
export function ConfigTab<T extends object>({
  name,
  path,
  description,
  toServer,
  fromServer,
  children,
  extraActions,
  testId,
}: ConfigTabProps<T>) {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const config = useConfig<T>(name, path);
  const [form] = Form.useForm<T>();
  const [saving, setSaving] = useState(false);

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

  const onFinish = async (values: T) => {
    setSaving(true);
    try {
      await saveConfig(path, toServer ? toServer(values) : values);
      await queryClient.invalidateQueries({ queryKey: settingsKeys.config(name) });
      void message.success(t('config.saved'));
    } catch {
      // the client toasted the reason
    } finally {
      setSaving(false);
    }
  };

  return (
    <div data-testid={testId} style={{ maxWidth: 640 }}>
      <Alert type="info" showIcon title={description} style={{ marginBottom: 20 }} />
      <Form<T> form={form} layout="vertical" onFinish={(v) => void onFinish(v)}>
        {children(form)}
        <div style={{ display: 'flex', gap: 8 }}>
          <Button type="primary" htmlType="submit" loading={saving}>
            {t('actions.save')}
          </Button>
          {extraActions?.(form)}
        </div>
      </Form>
    </div>
  );
}
