import './enrol.css';
import type { MfaSetup } from '@nimbus/contract';
import { Button, Form, Input, QRCode, Typography } from 'antd';
import { useTranslation } from 'react-i18next';

/**
 * The enrolment of an authenticator app: the QR code (drawn here from the otpauth address; no
 * image leaves the server), the secret to type in by hand, and the first code, which proves the
 * app has the secret.
 */
export function EnrolForm({
  setup,
  busy,
  onSubmit,
}: {
  setup: MfaSetup;
  busy: boolean;
  onSubmit: (code: string) => void;
}) {
  const { t } = useTranslation('security');
  return (
    <div className="nb-mfa-enrol" data-testid="mfa-enrol">
      <p>{t('mfa.scan')}</p>
      <div style={{ display: 'flex', justifyContent: 'center', margin: '12px 0' }}>
        <QRCode value={setup.qrCodeImageUri} size={176} bordered={false} bgColor="#fff" />
      </div>
      <p style={{ marginBottom: 4 }}>{t('mfa.manual')}</p>
      <Typography.Paragraph copyable={{ text: setup.secret }} data-testid="mfa-secret">
        <code style={{ wordBreak: 'break-all' }}>
          {setup.secret.replace(/(.{4})/g, '$1 ').trim()}
        </code>
      </Typography.Paragraph>
      <Form layout="vertical" onFinish={({ code }: { code: string }) => onSubmit(code.trim())}>
        <Form.Item
          name="code"
          label={t('mfa.code')}
          rules={[{ required: true, pattern: /^\s*\d{6}\s*$/, message: t('mfa.codeRule') }]}
        >
          <Input
            inputMode="numeric"
            autoComplete="one-time-code"
            maxLength={8}
            data-testid="mfa-code"
            autoFocus
          />
        </Form.Item>
        <Button type="primary" htmlType="submit" loading={busy} block data-testid="mfa-confirm">
          {t('mfa.confirm')}
        </Button>
      </Form>
    </div>
  );
}

/** The recovery codes, shown once: each signs in once when the phone is not at hand. */
export function RecoveryCodes({ codes }: { codes: string[] }) {
  const { t } = useTranslation('security');
  return (
    <div data-testid="mfa-recovery">
      <p>{t('mfa.recoveryLead')}</p>
      <Typography.Paragraph copyable={{ text: codes.join('\n') }}>
        <span className="nb-recovery-codes">
          {codes.map((code) => (
            <code key={code}>{code}</code>
          ))}
        </span>
      </Typography.Paragraph>
    </div>
  );
}
