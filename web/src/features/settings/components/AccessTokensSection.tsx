import { DeleteOutlined, KeyOutlined } from '@ant-design/icons';
import {
  ACCESS_TOKEN_NAME_MAX_LENGTH,
  ACCESS_TOKEN_SCOPES,
  type AccessTokenScope,
  type AccessTokenView,
} from '@nimbus/contract';
import {
  Alert,
  Button,
  Card,
  DatePicker,
  Form,
  Input,
  Modal,
  Popconfirm,
  Select,
  Table,
  Tag,
  Typography,
} from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  useAccessTokens,
  useDeleteAccessToken,
  useGenerateAccessToken,
} from '../../../api/security';

interface NewToken {
  tokenName: string;
  scope: AccessTokenScope;
  expires?: Dayjs | null;
}

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
  const [form] = Form.useForm<NewToken>();

  const onFinish = ({ tokenName, scope, expires }: NewToken) =>
    generate.mutate(
      {
        tokenName: tokenName.trim(),
        scope,
        // the end of the chosen day
        ...(expires ? { expiresAt: expires.endOf('day').valueOf() } : {}),
      },
      {
        onSuccess: (token) => {
          setMade(token);
          form.resetFields();
        },
      },
    );

  return (
    <Card
      title={
        <span>
          <KeyOutlined /> {t('tokens.title')}
        </span>
      }
      data-testid="tokens-card"
    >
      <p style={{ color: 'var(--nb-text-2)' }}>
        {t('tokens.lead')} {t('tokens.securityNote')}
      </p>
      <Form
        form={form}
        layout="inline"
        onFinish={onFinish}
        initialValues={{ scope: 'readWrite' }}
        style={{ marginBottom: 16, gap: 8 }}
      >
        <Form.Item
          name="tokenName"
          rules={[
            {
              required: true,
              whitespace: true,
              max: ACCESS_TOKEN_NAME_MAX_LENGTH,
              message: t('tokens.nameRule'),
            },
          ]}
          style={{ flex: '1 1 180px', marginInlineEnd: 0 }}
        >
          <Input
            placeholder={t('tokens.name')}
            maxLength={ACCESS_TOKEN_NAME_MAX_LENGTH}
            data-testid="token-name"
          />
        </Form.Item>
        <Form.Item name="scope" style={{ marginInlineEnd: 0 }}>
          <Select<AccessTokenScope>
            aria-label={t('tokens.scope')}
            style={{ width: 170 }}
            data-testid="token-scope"
            options={ACCESS_TOKEN_SCOPES.map((scope) => ({
              value: scope,
              label: t(`tokens.scopes.${scope}`),
            }))}
          />
        </Form.Item>
        <Form.Item name="expires" style={{ marginInlineEnd: 0 }}>
          <DatePicker
            placeholder={t('tokens.neverExpires')}
            aria-label={t('tokens.expires')}
            disabledDate={(day) => day.isBefore(dayjs(), 'day')}
            data-testid="token-expires"
          />
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
          {
            title: t('tokens.scope'),
            dataIndex: 'scope',
            render: (scope: AccessTokenScope, row) => (
              <span data-testid={`token-scope-${row.name}`}>{t(`tokens.scopes.${scope}`)}</span>
            ),
          },
          { title: t('tokens.created'), dataIndex: 'createTime', responsive: ['sm'] },
          {
            title: t('tokens.lastUsed'),
            dataIndex: 'lastActiveTime',
            render: (value: string, row) => (
              <span data-testid={`token-last-used-${row.name}`}>{value || t('tokens.never')}</span>
            ),
          },
          {
            title: t('tokens.expires'),
            dataIndex: 'expireTime',
            render: (value: string, row) =>
              row.expired ? (
                <Tag color="red">{t('tokens.expired')}</Tag>
              ) : (
                value || t('tokens.neverExpires')
              ),
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
