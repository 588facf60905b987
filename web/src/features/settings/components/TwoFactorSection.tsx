import type { MfaSetup, UserInfo } from '@nimbus/contract';
import { SafetyCertificateOutlined } from '@ant-design/icons';
import { Button, Card, Form, Input, Modal, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AccessEndsNotice } from '../../../components/AccessEndsNotice';
import { fetchMfaSetup, useDisableMfa, useEnableMfa } from '../../../api/security';
import { EnrolForm, RecoveryCodes } from '../../../components/EnrolForm';

/** The personal settings' two-factor sign-in: on with an authenticator app, off with a code. */
export function TwoFactorSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation('security');
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [disabling, setDisabling] = useState(false);
  const enable = useEnableMfa();
  const disable = useDisableMfa();

  const start = async () => setSetup(await fetchMfaSetup());
  const close = () => {
    setSetup(null);
    setCodes(null);
  };

  return (
    <Card
      title={
        <span>
          <SafetyCertificateOutlined /> {t('mfa.title')}
        </span>
      }
      data-testid="mfa-card"
    >
      <p style={{ color: 'var(--nb-text-2)' }}>{t('mfa.lead')}</p>
      {user.mfaEnabled ? (
        <Space>
          <Tag color="green" data-testid="mfa-on">
            {t('mfa.on')}
          </Tag>
          <Button danger onClick={() => setDisabling(true)} data-testid="mfa-turn-off">
            {t('mfa.turnOff')}
          </Button>
        </Space>
      ) : (
        <Space>
          <Tag>{t('mfa.off')}</Tag>
          <Button type="primary" onClick={() => void start()} data-testid="mfa-turn-on">
            {t('mfa.turnOn')}
          </Button>
        </Space>
      )}

      <Modal
        open={setup !== null}
        title={t('mfa.setupTitle')}
        onCancel={close}
        footer={codes ? <Button onClick={close}>{t('mfa.done')}</Button> : null}
        destroyOnHidden
      >
        {codes ? (
          <RecoveryCodes codes={codes} />
        ) : setup ? (
          <>
            <AccessEndsNotice />
            <EnrolForm
              setup={setup}
              busy={enable.isPending}
              onSubmit={(code) =>
                enable.mutate(
                  { secret: setup.secret, code },
                  { onSuccess: (result) => setCodes(result.recoveryCodes) },
                )
              }
            />
          </>
        ) : null}
      </Modal>

      <Modal
        open={disabling}
        title={t('mfa.turnOff')}
        onCancel={() => setDisabling(false)}
        footer={null}
        destroyOnHidden
      >
        <Form
          layout="vertical"
          onFinish={({ password, code }: { password: string; code: string }) =>
            disable.mutate(
              { password, code: code.trim() },
              { onSuccess: () => setDisabling(false) },
            )
          }
        >
          <Form.Item
            name="password"
            label={t('mfa.password')}
            rules={[{ required: true, message: t('mfa.passwordRule') }]}
          >
            <Input.Password autoComplete="current-password" data-testid="mfa-off-password" />
          </Form.Item>
          <Form.Item
            name="code"
            label={t('mfa.codeOrRecovery')}
            rules={[{ required: true, min: 6, max: 16, message: t('mfa.codeOrRecoveryRule') }]}
          >
            <Input autoComplete="one-time-code" maxLength={16} data-testid="mfa-off-code" />
          </Form.Item>
          <Button danger htmlType="submit" block loading={disable.isPending}>
            {t('mfa.turnOff')}
          </Button>
        </Form>
      </Modal>
    </Card>
  );
}
