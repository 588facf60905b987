import { Card, Tabs } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { PageHeader } from '../../../components/PageHeader';
import { useUserInfo } from '../../../api/account';
import { LdapTab, MfaTab, OcrTab, PreviewTab, TranscodeTab } from '../components/AdminTabs';
import { AppearanceForm } from '../components/AppearanceForm';
import { AuditTab } from '../components/AuditTab';
import { DriveCheckTab } from '../components/DriveCheckTab';
import { GeneralTab } from '../components/GeneralTab';

/** The authority that unlocks drive-wide settings (API notes §1.12). */
export const SETTINGS_AUTHORITY = 'cloud:set:sync';

/** /setting/cloudManager: the settings sections of spec §1. */
export function CloudManagerPage() {
  const { t } = useTranslation('settings');
  const { data: user } = useUserInfo();
  const [params, setParams] = useSearchParams();
  const isAdmin = Boolean(user?.creator || user?.authorities?.includes(SETTINGS_AUTHORITY));

  const tabs = [
    { key: 'general', label: t('tabs.general'), children: <GeneralTab isAdmin={isAdmin} /> },
    {
      key: 'personalization',
      label: t('tabs.personalization'),
      children: (
        <Card style={{ maxWidth: 640 }} data-testid="personalization-tab">
          <AppearanceForm />
        </Card>
      ),
    },
    ...(isAdmin
      ? [
          { key: 'transcode', label: t('tabs.transcode'), children: <TranscodeTab /> },
          { key: 'preview', label: t('tabs.preview'), children: <PreviewTab /> },
          { key: 'ocr', label: t('tabs.ocr'), children: <OcrTab /> },
          { key: 'ldap', label: t('tabs.ldap'), children: <LdapTab /> },
          { key: 'mfa', label: t('tabs.mfa'), children: <MfaTab /> },
          { key: 'audit', label: t('tabs.audit'), children: <AuditTab /> },
          { key: 'check', label: t('tabs.check'), children: <DriveCheckTab /> },
        ]
      : []),
  ];
  const active = tabs.some((tab) => tab.key === params.get('tab')) ? params.get('tab')! : 'general';

  return (
    <div className="nb-page" data-testid="cloud-settings">
      <PageHeader title={t('cloud.title')} subtitle={t('cloud.subtitle')} />
      <Tabs
        activeKey={active}
        onChange={(key) => setParams({ tab: key }, { replace: true })}
        items={tabs}
        destroyOnHidden
      />
    </div>
  );
}
