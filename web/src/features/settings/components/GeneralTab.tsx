import {
  ClearOutlined,
  CloudUploadOutlined,
  DatabaseOutlined,
  FolderOutlined,
  InfoCircleOutlined,
} from '@ant-design/icons';
import {
  DRIVE_NAME_MAX_LENGTH,
  DRIVE_NAME_PATTERN,
  FOOTER_TEXT_MAX,
  formatLimit,
  logoProblem,
  LOGO_ACCEPT,
  LOGO_MAX_BYTES,
  PRODUCT_VERSION,
  VERSIONS_PER_FILE_MAX,
  type WebsiteSettingBody,
} from '@nimbus/contract';
import { App, Button, Card, Form, Input, InputNumber, Progress, Space, Tag, Upload } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { onLiveMessage } from '../../../api/events';
import { useBranding } from '../../../api/branding';
import { useUserInfo, useWebsiteRecord } from '../../../api/account';
import { WebpStorageCard } from './WebpStorageCard';
import { RetentionCard } from './RetentionCard';
import {
  useRebuildIndex,
  useRecalculateFolderSizes,
  useResetMenusAndRoles,
  useRenameDrive,
  useSaveWebsiteSetting,
  useUploadLogo,
  useVersionStatus,
  useWebsiteSetting,
  type SyncState,
} from '../api';

const LOGO_PROBLEM_KEYS = {
  format: 'general.logoFormat',
  empty: 'general.logoEmpty',
  size: 'general.logoSize',
} as const;

/** The logo's limit in words, as the rule's texts name it. */
const LOGO_LIMIT = { size: formatLimit(LOGO_MAX_BYTES) };

function BrandingCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const { name, logo } = useBranding();
  const rename = useRenameDrive();
  const uploadLogo = useUploadLogo();

  const onFinish = async ({ netdiskName }: { netdiskName: string }) => {
    try {
      await rename.mutateAsync(netdiskName.trim());
      void message.success(t('general.nameSaved'));
    } catch {
      // toasted by the client
    }
  };

  return (
    <Card title={t('general.branding')} data-testid="branding-card">
      <Form<{ netdiskName: string }>
        layout="vertical"
        initialValues={{ netdiskName: name }}
        onFinish={(v) => void onFinish(v)}
      >
        <Form.Item
          name="netdiskName"
          label={t('general.driveName')}
          rules={[
            { required: true, whitespace: true, message: t('general.driveNameRequired') },
            { pattern: DRIVE_NAME_PATTERN, message: t('general.driveNamePattern') },
          ]}
        >
          <Input maxLength={DRIVE_NAME_MAX_LENGTH} data-testid="drive-name-input" />
        </Form.Item>
        <Form.Item label={t('general.logo')} extra={t('general.logoHint', LOGO_LIMIT)}>
          <Space size={16} align="center">
            <img
              src={logo}
              alt={t('general.logo')}
              width={48}
              height={48}
              style={{ borderRadius: 10, objectFit: 'contain' }}
            />
            <Upload
              accept={LOGO_ACCEPT}
              showUploadList={false}
              beforeUpload={(file) => {
                const problem = logoProblem(file);
                if (problem) {
                  void message.error(t(LOGO_PROBLEM_KEYS[problem], LOGO_LIMIT));
                  return Upload.LIST_IGNORE;
                }
                uploadLogo.mutate(file, {
                  onSuccess: () => void message.success(t('general.logoSaved')),
                });
                return false;
              }}
            >
              <Button
                icon={<CloudUploadOutlined />}
                loading={uploadLogo.isPending}
                data-testid="logo-upload"
              >
                {t('general.logoUpload')}
              </Button>
            </Upload>
          </Space>
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={rename.isPending}
          data-testid="drive-name-save"
        >
          {t('actions.save')}
        </Button>
      </Form>
    </Card>
  );
}

function MaintenanceCard() {
  const { t } = useTranslation('settings');
  const { message, modal } = App.useApp();
  const resetMenus = useResetMenusAndRoles();
  const rebuildIndex = useRebuildIndex();
  const recalculateFolderSizes = useRecalculateFolderSizes();
  const [sync, setSync] = useState<SyncState | null>(null);
  const [folderPercent, setFolderPercent] = useState<number | null>(null);
  const [busy, setBusy] = useState<string | null>(null);

  useEffect(() => {
    const offSync = onLiveMessage('synced', (m) => setSync(m.body ?? {}));
    const offFolder = onLiveMessage('calculateFolderSizeProcessed', (m) =>
      setFolderPercent(typeof m.body === 'number' ? m.body : Number(m.body) || 0),
    );
    return () => {
      offSync();
      offFolder();
    };
  }, []);

  const run = async (key: string, action: () => Promise<void>, done: string) => {
    setBusy(key);
    try {
      await action();
      void message.success(done);
    } catch {
      // toasted by the client
    } finally {
      setBusy(null);
    }
  };

  const confirmReset = () =>
    modal.confirm({
      title: t('general.resetTitle'),
      content: t('general.resetConfirm'),
      okText: t('general.reset'),
      okButtonProps: { danger: true, 'data-testid': 'reset-menus-confirm' },
      cancelText: t('actions.cancel'),
      onOk: () =>
        run(
          'reset',
          async () => {
            await resetMenus.mutateAsync();
          },
          t('general.resetDone'),
        ),
    });

  const row = (
    icon: ReactNode,
    title: string,
    hint: string,
    action: ReactNode,
    progress?: ReactNode,
  ) => (
    <div
      style={{
        display: 'flex',
        gap: 12,
        alignItems: 'flex-start',
        padding: '12px 0',
        borderBottom: '1px solid var(--nb-border)',
      }}
    >
      <span style={{ fontSize: 18, color: 'var(--nb-brand)', marginTop: 2 }}>{icon}</span>
      <div style={{ flex: 1, minWidth: 0 }}>
        <div style={{ fontWeight: 600 }}>{title}</div>
        <div style={{ color: 'var(--nb-text-2)', fontSize: 13 }}>{hint}</div>
        {progress}
      </div>
      {action}
    </div>
  );

  return (
    <Card
      title={t('general.maintenance')}
      data-testid="maintenance-card"
      styles={{ body: { paddingTop: 4 } }}
    >
      {row(
        <DatabaseOutlined />,
        t('general.rebuildIndex'),
        t('general.rebuildIndexHint'),
        <Button
          loading={busy === 'sync'}
          onClick={() =>
            void run(
              'sync',
              async () => {
                await rebuildIndex.mutateAsync();
              },
              t('general.rebuildStarted'),
            )
          }
        >
          {t('general.run')}
        </Button>,
        sync ? (
          <div style={{ marginTop: 8 }}>
            <Progress
              percent={Math.round(sync.syncPercent ?? 0)}
              size="small"
              format={(p) => t('general.syncPercent', { percent: p })}
            />
            <Progress
              percent={Math.round(sync.indexingPercent ?? 0)}
              size="small"
              format={(p) => t('general.indexPercent', { percent: p })}
            />
          </div>
        ) : null,
      )}
      {row(
        <FolderOutlined />,
        t('general.folderSize'),
        t('general.folderSizeHint'),
        <Button
          loading={busy === 'folder'}
          onClick={() =>
            void run(
              'folder',
              async () => {
                await recalculateFolderSizes.mutateAsync();
              },
              t('general.folderSizeStarted'),
            )
          }
        >
          {t('general.run')}
        </Button>,
        folderPercent !== null ? (
          <Progress percent={Math.round(folderPercent)} size="small" style={{ marginTop: 8 }} />
        ) : null,
      )}
      {row(
        <ClearOutlined />,
        t('general.resetMenus'),
        t('general.resetMenusHint'),
        <Button danger loading={busy === 'reset'} onClick={confirmReset} data-testid="reset-menus">
          {t('general.reset')}
        </Button>,
      )}
    </Card>
  );
}

/** The footer line of the public pages and the versions kept of each file. */
function WebsiteCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const setting = useWebsiteSetting();
  const save = useSaveWebsiteSetting();
  if (!setting.data) return <Card title={t('website.title')} loading />;

  const onFinish = async (values: WebsiteSettingBody) => {
    try {
      await save.mutateAsync(values);
      void message.success(t('website.saved'));
    } catch {
      // toasted by the client
    }
  };

  return (
    <Card title={t('website.title')} data-testid="website-card">
      <Form<WebsiteSettingBody>
        layout="vertical"
        initialValues={{
          footerText: setting.data.footerText,
          versionsPerFile: setting.data.versionsPerFile,
        }}
        onFinish={(values) => void onFinish(values)}
      >
        <Form.Item
          name="footerText"
          label={t('website.footer')}
          extra={t('website.footerHint')}
          rules={[{ max: FOOTER_TEXT_MAX, message: t('website.footerTooLong') }]}
        >
          <Input maxLength={FOOTER_TEXT_MAX} allowClear data-testid="website-footer" />
        </Form.Item>
        <Form.Item
          name="versionsPerFile"
          label={t('website.versions')}
          extra={t('website.versionsHint')}
        >
          <InputNumber min={1} max={VERSIONS_PER_FILE_MAX} data-testid="website-versions" />
        </Form.Item>
        <Button
          type="primary"
          htmlType="submit"
          loading={save.isPending}
          data-testid="website-save"
        >
          {t('website.save')}
        </Button>
      </Form>
    </Card>
  );
}

/** The running version beside the newest release; administrators see which one and its notes. */
export function VersionCard({ isAdmin }: { isAdmin: boolean }) {
  const { t } = useTranslation('settings');
  const { data: user } = useUserInfo();
  const { data: record } = useWebsiteRecord();
  const { data: status } = useVersionStatus(isAdmin);
  // without an update feed nothing is known of newer versions: no "up to date" claim then
  const unchecked = status?.updateChecks === false;
  return (
    <Card title={t('general.version')} data-testid="version-card">
      <dl className="nb-kv">
        <dt>{t('general.currentVersion')}</dt>
        <dd>
          <span className="nb-mono" data-testid="app-version">
            {PRODUCT_VERSION}
          </span>
          {user?.newVersion ? (
            <Tag color="red" style={{ marginInlineStart: 8 }} data-testid="version-new">
              {t('general.newVersion')}
            </Tag>
          ) : unchecked ? null : (
            <Tag color="green" style={{ marginInlineStart: 8 }}>
              {t('general.upToDate')}
            </Tag>
          )}
        </dd>
        {record?.version && record.version !== PRODUCT_VERSION ? (
          <>
            <dt>{t('general.serverVersion')}</dt>
            <dd className="nb-mono">{record.version}</dd>
          </>
        ) : null}
        {status?.latestVersion ? (
          <>
            <dt>{t('general.latestVersion')}</dt>
            <dd>
              <span className="nb-mono" data-testid="latest-version">
                {status.latestVersion}
              </span>
              {status.latestUrl ? (
                <a
                  href={status.latestUrl}
                  target="_blank"
                  rel="noopener noreferrer"
                  style={{ marginInlineStart: 8 }}
                  data-testid="release-notes"
                >
                  {t('general.releaseNotes')}
                </a>
              ) : null}
            </dd>
          </>
        ) : null}
      </dl>
      <p style={{ color: 'var(--nb-text-2)', margin: '12px 0 0', fontSize: 13 }}>
        <InfoCircleOutlined /> {t(unchecked ? 'general.updateChecksOff' : 'general.versionHint')}
      </p>
    </Card>
  );
}

export function GeneralTab({ isAdmin }: { isAdmin: boolean }) {
  return (
    <div className="nb-settings-grid" data-testid="general-tab">
      {isAdmin ? (
        <div style={{ display: 'grid', gap: 16, alignContent: 'start' }}>
          <BrandingCard />
          <WebsiteCard />
          <RetentionCard />
        </div>
      ) : null}
      <div style={{ display: 'grid', gap: 16 }}>
        {isAdmin ? <MaintenanceCard /> : null}
        {isAdmin ? <WebpStorageCard /> : null}
        <VersionCard isAdmin={isAdmin} />
      </div>
    </div>
  );
}
