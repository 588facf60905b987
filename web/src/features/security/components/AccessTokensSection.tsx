import { DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import type { AccessTokenView } from '@nimbus/contract';
import { Alert, Button, Card, Form, Input, Modal, Popconfirm, Table, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccessTokens, useDeleteAccessToken, useGenerateAccessToken } from '../api';

/**
 * Access tokens for programs (WebDAV clients, scripts), and the WebDAV password of an account
 * with two-factor sign-in. A token's text is shown once, when it is made.
 */
export function AccessTokensSection() {
  const { t } = useTranslation('security');
  const tokens = useAccessTokens();
  const generate = useGenerateAccessToken();
  const remove = useDeleteAccessToken();
  const [made, setMade] = useState<string | null>(null);
  const [form] = Form.useForm<{ tokenName: string }>();

  const onFinish = ({ tokenName }: { tokenName: string }) =>
    generate.mutate(tokenName.trim(), {
      onSuccess: (token) => {
        setMade(token);
        form.resetFields();
      },
    });

  return (
    <Card
      title={
        <span>
          <KeyOutlined /> {t('tokens.title')}
        </span>
      }
      data-testid="tokens-card"
    >
      <p style={{ color: 'var(--nb-text-2)' }}>{t('tokens.lead')}</p>
      <Form form={form} layout="inline" onFinish={onFinish} style={{ marginBottom: 16, gap: 8 }}>
        <Form.Item
          name="tokenName"
          rules={[{ required: true, whitespace: true, max: 64, message: t('tokens.nameRule') }]}
          style={{ flex: '1 1 180px', marginInlineEnd: 0 }}
        >
          <Input placeholder={t('tokens.name')} maxLength={64} data-testid="token-name" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={generate.isPending}
          data-testid="token-generate"
        >
          {t('tokens.generate')}
        </Button>
      </Form>
      <Table<AccessTokenView>
        rowKey="id"
        size="small"
        loading={tokens.isLoading}
        dataSource={tokens.data ?? []}
        pagination={false}
        scroll={{ x: 'max-content' }}
        locale={{ emptyText: t('tokens.none') }}
        columns={[
          { title: t('tokens.name'), dataIndex: 'name', ellipsis: true },
          { title: t('tokens.created'), dataIndex: 'createTime', responsive: ['sm'] },
          {
            title: t('tokens.lastUsed'),
            dataIndex: 'lastActiveTime',
            render: (value: string) => value || t('tokens.never'),
          },
          {
            title: '',
            key: 'actions',
            width: 48,
            render: (_: unknown, row) => (
              <Popconfirm
                title={t('tokens.deleteConfirm', { name: row.name })}
                onConfirm={() => remove.mutate(row.id)}
              >
                <Button
                  type="text"
                  danger
                  icon={<DeleteOutlined />}
                  aria-label={t('tokens.delete')}
                  data-testid={`token-delete-${row.name}`}
                />
              </Popconfirm>
            ),
          },
        ]}
      />
      <Modal
        open={made !== null}
        title={t('tokens.madeTitle')}
        onCancel={() => setMade(null)}
        footer={<Button onClick={() => setMade(null)}>{t('tokens.done')}</Button>}
      >
        <Alert type="warning" showIcon message={t('tokens.once')} style={{ marginBottom: 12 }} />
        <Typography.Paragraph copyable={{ text: made ?? '' }} data-testid="token-made">
          <code style={{ wordBreak: 'break-all' }}>{made}</code>
        </Typography.Paragraph>
      </Modal>
    </Card>
  );
}
