import { SafetyOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  App,
  Button,
  Card,
  Form,
  Input,
  InputNumber,
  Radio,
  Select,
  Switch,
  Tag,
} from 'antd';
import {
  authApi,
  ocrConfigApi,
  previewConfigApi,
  transcodeApi,
  type TranscodeConfig,
} from '@nimbus/contract';
import JSON5 from 'json5';
import { useTranslation } from 'react-i18next';
import { EmptyState } from '../../../components/EmptyState';
import { roleLabel } from '../../../lib/roles';
import { fetchRoles } from '../../../api/roles';
import {
  useMfaForced,
  useResetEveryonesMfa,
  useSetMfaForced,
  useTestLdapConfig,
  useConfig,
} from '../api';
import { ConfigTab } from './ConfigTab';
import { TranscodeQueue } from './TranscodeQueue';

export function TranscodeTab() {
  const { t } = useTranslation('settings');
  const number = (name: keyof TranscodeConfig, min: number, max: number, unit?: string) => (
    <Form.Item
      name={name}
      label={t(`transcode.${name}`)}
      rules={[{ required: true, type: 'number', min, max }]}
    >
      <InputNumber min={min} max={max} style={{ width: '100%' }} suffix={unit} />
    </Form.Item>
  );
  return (
    <>
      <ConfigTab
        name="transcode"
        read={transcodeApi.config}
        save={transcodeApi.setConfig}
        description={t('transcode.description')}
        testId="transcode-tab"
      >
        {() => (
          <>
            <Form.Item name="enable" label={t('transcode.enable')} valuePropName="checked">
              <Switch />
            </Form.Item>
            {number('maxThreads', 1, 8)}
            <Card size="small" title={t('transcode.conditions')} style={{ marginBottom: 16 }}>
              <div
                style={{
                  display: 'grid',
                  gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))',
                  gap: '0 12px',
                }}
              >
                {number('bitrateCond', 100, 100000, 'kbps')}
                {number('heightCond', 144, 4320, 'px')}
                {number('frameRateCond', 1, 240, 'fps')}
              </div>
            </Card>
            <Card size="small" title={t('transcode.targets')} style={{ marginBottom: 16 }}>
              <div
                style={{
                  display: 'grid',
                  gridTemplateColumns: 'repeat(auto-fit, minmax(160px, 1fr))',
                  gap: '0 12px',
                }}
              >
                {number('bitrate', 100, 100000, 'kbps')}
                {number('height', 144, 4320, 'px')}
                {number('frameRate', 1, 240, 'fps')}
              </div>
            </Card>
            {number('vttThumbnailCount', 1, 256)}
            <Form.Item
              name="isReTranscode"
              label={t('transcode.isReTranscode')}
              valuePropName="checked"
            >
              <Switch />
            </Form.Item>
          </>
        )}
      </ConfigTab>
      <TranscodeQueue />
    </>
  );
}

export function OcrTab() {
  const { t } = useTranslation('settings');
  const { t: ts } = useTranslation('search');
  const status = useConfig('ocr', ocrConfigApi.config);
  const engines = status.data?.engines;
  const installed = (ok: boolean | undefined) => (
    <Tag color={ok ? 'success' : 'default'}>{ok ? ts('ocr.installed') : ts('ocr.missing')}</Tag>
  );
  return (
    <ConfigTab
      name="ocr"
      read={ocrConfigApi.config}
      save={ocrConfigApi.setConfig}
      description={t('ocr.description')}
      // only the settings go back; what is installed is the server's to say
      toServer={({ enable, maxTasks, ocrEngine }) => ({ enable, maxTasks, ocrEngine })}
      testId="ocr-tab"
    >
      {() => (
        <>
          <Form.Item name="enable" label={t('ocr.enable')} valuePropName="checked">
            <Switch data-testid="ocr-enable" />
          </Form.Item>
          <Form.Item name="ocrEngine" label={t('ocr.engine')}>
            <Radio.Group
              options={[
                { value: 'tesseract', label: ts('ocr.tesseract') },
                { value: 'tesseract.js', label: ts('ocr.wasm') },
              ]}
            />
          </Form.Item>
          <Form.Item
            name="maxTasks"
            label={t('ocr.maxTasks')}
            extra={ts('ocr.maxTasksHint')}
            rules={[{ required: true, type: 'number', min: 1, max: 8 }]}
          >
            <InputNumber min={1} max={8} style={{ width: 160 }} data-testid="ocr-max-tasks" />
          </Form.Item>
          {status.data ? (
            <Card
              size="small"
              title={ts('ocr.engines')}
              style={{ marginBottom: 16 }}
              data-testid="ocr-engines"
            >
              <div>
                {ts('ocr.tesseract')} {installed(engines?.tesseract)}
                {status.data.languages?.length
                  ? ts('ocr.languages', { languages: status.data.languages.join(', ') })
                  : null}
              </div>
              <div>
                {ts('ocr.wasm')} {installed(engines?.['tesseract.js'])}
              </div>
              <div>
                {ts('ocr.pdf')} {installed(status.data.pdfText)}
              </div>
              {!engines?.tesseract && !engines?.['tesseract.js'] ? (
                <Alert
                  type="warning"
                  showIcon
                  title={ts('ocr.noEngine')}
                  style={{ marginTop: 8 }}
                />
              ) : null}
            </Card>
          ) : null}
        </>
      )}
    </ConfigTab>
  );
}

/** The Preview Config is JSON5 (comments, unquoted keys, trailing commas), as the server reads it. */
function isJsonObject(text: string): boolean {
  try {
    const value: unknown = JSON5.parse(text);
    return typeof value === 'object' && value !== null && !Array.isArray(value);
  } catch {
    return false;
  }
}

export function PreviewTab() {
  const { t } = useTranslation('settings');
  return (
    <ConfigTab
      name="preview"
      read={previewConfigApi.config}
      save={previewConfigApi.setConfig}
      description={t('preview.description')}
      testId="preview-tab"
    >
      {() => (
        <Form.Item
          name="iframe"
          label={t('preview.mapping')}
          extra={t('preview.mappingHint')}
          rules={[
            {
              validator: (_, value: string | undefined) =>
                !value || isJsonObject(value)
                  ? Promise.resolve()
                  : Promise.reject(new Error(t('preview.invalidJson'))),
            },
          ]}
        >
          <Input.TextArea
            autoSize={{ minRows: 8, maxRows: 20 }}
            className="nb-mono"
            spellCheck={false}
          />
        </Form.Item>
      )}
    </ConfigTab>
  );
}

export function LdapTab() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const testLdap = useTestLdapConfig();
  const roles = useQuery({ queryKey: ['role', 'list'], queryFn: fetchRoles, retry: false });
  return (
    <ConfigTab
      name="ldap"
      read={authApi.ldapConfig}
      save={authApi.setLdapConfig}
      description={t('ldap.description')}
      testId="ldap-tab"
      extraActions={(form) => (
        <Button
          loading={testLdap.isPending}
          onClick={() => {
            void form.validateFields().then((values) =>
              // a failure is toasted by the client
              testLdap.mutate(values, { onSuccess: () => void message.success(t('ldap.testOk')) }),
            );
          }}
        >
          {t('ldap.test')}
        </Button>
      )}
    >
      {() => (
        <>
          <Form.Item name="enable" label={t('ldap.enable')} valuePropName="checked">
            <Switch />
          </Form.Item>
          <Form.Item name="ldapServer" label={t('ldap.server')} rules={[{ required: true }]}>
            <Input placeholder="ldap://ldap.example.com:389" />
          </Form.Item>
          <Form.Item name="baseDN" label={t('ldap.baseDN')} rules={[{ required: true }]}>
            <Input placeholder="dc=example,dc=com" />
          </Form.Item>
          <Form.Item name="userDN" label={t('ldap.userDN')}>
            <Input placeholder="cn=admin,dc=example,dc=com" />
          </Form.Item>
          <Form.Item name="password" label={t('ldap.password')}>
            <Input.Password autoComplete="new-password" />
          </Form.Item>
          <Form.Item name="loginName" label={t('ldap.loginName')} rules={[{ required: true }]}>
            <Input placeholder="uid" />
          </Form.Item>
          <Form.Item name="defaultRoleList" label={t('ldap.defaultRoles')}>
            <Select
              mode="multiple"
              loading={roles.isPending}
              options={(roles.data?.items ?? []).map((role) => ({
                value: role.code,
                label: roleLabel(role),
              }))}
            />
          </Form.Item>
        </>
      )}
    </ConfigTab>
  );
}

export function MfaTab() {
  const { t } = useTranslation('settings');
  const { message, modal } = App.useApp();
  const policy = useMfaForced();
  const setForced = useSetMfaForced();
  const resetAll = useResetEveryonesMfa();

  if (policy.isError) {
    return (
      <div data-testid="mfa-tab" style={{ padding: '32px 0' }}>
        <EmptyState
          icon={<SafetyOutlined />}
          title={t('config.unavailable')}
          description={t('config.unavailableHint')}
        >
          <Button onClick={() => void policy.refetch()}>{t('actions.retry')}</Button>
        </EmptyState>
      </div>
    );
  }

  return (
    <div data-testid="mfa-tab" style={{ maxWidth: 640 }}>
      <Form layout="vertical">
        <Form.Item label={t('mfa.force')} extra={t('mfa.forceHint')}>
          <Switch
            checked={Boolean(policy.data)}
            loading={policy.isPending || setForced.isPending}
            // a refusal is toasted by the client
            onChange={(v) => setForced.mutate(v)}
          />
        </Form.Item>
        <Form.Item label={t('mfa.reset')} extra={t('mfa.resetHint')}>
          <Button
            danger
            onClick={() =>
              modal.confirm({
                title: t('mfa.reset'),
                content: t('mfa.resetConfirm'),
                okButtonProps: { danger: true },
                okText: t('mfa.resetOk'),
                cancelText: t('actions.cancel'),
                onOk: async () => {
                  await resetAll.mutateAsync();
                  void message.success(t('mfa.resetDone'));
                },
              })
            }
          >
            {t('mfa.resetOk')}
          </Button>
        </Form.Item>
      </Form>
    </div>
  );
}
