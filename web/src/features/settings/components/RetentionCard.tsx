import { DRAFTS_PER_USER, RETENTION_DAYS_MAX, type WebsiteSettingBody } from '@nimbus/contract';
import { App, Button, Card, Form, InputNumber } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSaveWebsiteSetting, useWebsiteSetting } from '../api';
import './retention.css';

type RetentionFields = Required<
  Pick<WebsiteSettingBody, 'trashRetentionDays' | 'versionRetentionDays'>
>;

/** Every rule of what Nimbus keeps how long, as docs/operations.md's "Retention" table. */
const RULES = [
  'trash',
  'versions',
  'uploads',
  'drafts',
  'caches',
  'shares',
  'audit',
  'tasks',
] as const;

/**
 * Retention (administrators): how many days the trash and versions keep what they hold (0:
 * for ever), and the table of every rule of what the drive keeps how long.
 */
export function RetentionCard() {
  const { t } = useTranslation('settings');
  const { message } = App.useApp();
  const setting = useWebsiteSetting();
  const save = useSaveWebsiteSetting();
  if (!setting.data) return <Card title={t('retention.title')} loading />;
  const { trashRetentionDays, versionRetentionDays, versionsPerFile } = setting.data;

  const onFinish = async (values: RetentionFields) => {
    try {
      await save.mutateAsync(values);
      void message.success(t('retention.saved'));
    } catch {
      // toasted by the client
    }
  };

  const days = (name: keyof RetentionFields, testId: string) => (
    <Form.Item
      name={name}
      label={t(`retention.${name}`)}
      extra={t(`retention.${name}Hint`)}
      rules={[{ required: true, type: 'integer', min: 0, max: RETENTION_DAYS_MAX }]}
    >
      <InputNumber
        min={0}
        max={RETENTION_DAYS_MAX}
        precision={0}
        suffix={t('retention.days')}
        style={{ width: 160 }}
        data-testid={testId}
      />
    </Form.Item>
  );

  const kept = {
    trash:
      trashRetentionDays > 0
        ? t('retention.rules.trashDays', { count: trashRetentionDays })
        : t('retention.rules.trashOff'),
    versions:
      versionRetentionDays > 0
        ? t('retention.rules.versionsDays', { count: versionsPerFile, days: versionRetentionDays })
        : t('retention.rules.versions', { count: versionsPerFile }),
    uploads: t('retention.rules.uploads'),
    drafts: t('retention.rules.drafts', { count: DRAFTS_PER_USER }),
    caches: t('retention.rules.caches'),
    shares: t('retention.rules.shares'),
    audit: t('retention.rules.audit'),
    tasks: t('retention.rules.tasks'),
  };

  return (
    <Card title={t('retention.title')} data-testid="retention-card">
      <Form<RetentionFields>
        layout="vertical"
        initialValues={{ trashRetentionDays, versionRetentionDays }}
        onFinish={(values) => void onFinish(values)}
      >
        {days('trashRetentionDays', 'retention-trash-days')}
        {days('versionRetentionDays', 'retention-version-days')}
        <Button
          type="primary"
          htmlType="submit"
          loading={save.isPending}
          data-testid="retention-save"
        >
          {t('retention.save')}
        </Button>
      </Form>
      <table className="nb-retention" data-testid="retention-rules">
        <caption>{t('retention.rulesTitle')}</caption>
        <thead>
          <tr>
            <th scope="col">{t('retention.what')}</th>
            <th scope="col">{t('retention.kept')}</th>
          </tr>
        </thead>
        <tbody>
          {RULES.map((rule) => (
            <tr key={rule} data-testid={`retention-rule-${rule}`}>
              <th scope="row">{t(`retention.names.${rule}`)}</th>
              <td>{kept[rule]}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </Card>
  );
}
