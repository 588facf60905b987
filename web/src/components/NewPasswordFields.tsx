import { LockOutlined } from '@ant-design/icons';
import { Form } from 'antd';
import { Password } from './inputs';
import { useTranslation } from 'react-i18next';
import { confirmRules, passwordRules } from '../lib/validation';

/**
 * A new password and its confirmation, as form fields `password` and `confirm` (spec §5 rules).
 * Plain: without the lock icons and the live tick, as in an administrator's dialog.
 */
export function NewPasswordFields({
  passwordLabel,
  confirmLabel,
  testIds,
  plain = false,
}: {
  passwordLabel: string;
  confirmLabel: string;
  testIds: { password: string; confirm: string };
  plain?: boolean;
}) {
  const { t } = useTranslation('auth');
  const prefix = plain ? undefined : <LockOutlined />;
  return (
    <>
      <Form.Item
        name="password"
        label={passwordLabel}
        rules={passwordRules(t)}
        hasFeedback={!plain}
      >
        <Password prefix={prefix} autoComplete="new-password" data-testid={testIds.password} />
      </Form.Item>
      <Form.Item
        name="confirm"
        label={confirmLabel}
        dependencies={['password']}
        rules={confirmRules(t)}
        hasFeedback={!plain}
      >
        <Password prefix={prefix} autoComplete="new-password" data-testid={testIds.confirm} />
      </Form.Item>
    </>
  );
}
