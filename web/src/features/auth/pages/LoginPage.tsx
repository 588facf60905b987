import {
  ArrowLeftOutlined,
  CloudSyncOutlined,
  LockOutlined,
  SafetyCertificateOutlined,
  ShareAltOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { PRODUCT_VERSION } from '@nimbus/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Form, Skeleton } from 'antd';
import { Input, OTP, Password } from '../../../components/inputs';
import { lazy, Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useBranding } from '../../../lib/branding';
import { withDriveTexts } from '../../../i18n';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { ThemeSwitch } from '../../../components/ThemeSwitch';
import {
  createAdministrator,
  login,
  verifyTotp,
  type Credentials,
  type LoginOutcome,
} from '../api';
import { authKeys, useHasUser } from '../../../api/account';
import { FooterText } from '../components/FooterText';
import { failureText } from '../failure';
import { useSignIn } from '../session';
import { NewPasswordFields } from '../components/NewPasswordFields';
import { passwordRules, usernameRules } from '../validation';

// Enrolment in a second factor draws a QR code: loaded only for the user who must enrol.
const EnrolStep = lazy(async () => ({
  default: (await withDriveTexts(import('../../security/components/EnrolStep'))).EnrolStep,
}));

type MfaStep = Extract<LoginOutcome, { kind: 'mfa' | 'enrol' }>;

/** The username of the sign-in and first-run forms; strict: a new name must fit the pattern. */
function UsernameField({ strict }: { strict: boolean }) {
  const { t } = useTranslation('auth');
  return (
    <Form.Item name="username" label={t('fields.username')} rules={usernameRules(t, strict)}>
      <Input
        prefix={<UserOutlined />}
        autoComplete="username"
        autoFocus
        data-testid="login-username"
      />
    </Form.Item>
  );
}

function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Alert
      type="error"
      showIcon
      title={error}
      style={{ marginBottom: 16 }}
      role="alert"
      data-testid="login-error"
    />
  );
}

interface CreateAdminValues {
  username: string;
  password: string;
  confirm: string;
}

/** /login and /login_m: sign in, the verification-code step, or first-run "create admin" (spec §2). */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const { name, logo } = useBranding();
  const hasUser = useHasUser();
  const queryClient = useQueryClient();
  const signIn = useSignIn();
  const [mfa, setMfa] = useState<MfaStep | null>(null);
  /** The second step takes a recovery code instead of the app's six digits. */
  const [recovery, setRecovery] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [loginForm] = Form.useForm<Credentials>();

  const finish = (outcome: LoginOutcome) => {
    if (outcome.kind !== 'session') {
      setMfa(outcome);
      setRecovery(false);
      return;
    }
    signIn(outcome);
  };

  const run = async (action: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(failureText(caught, fallback));
    } finally {
      setBusy(false);
    }
  };

  const onLogin = (values: Credentials) =>
    run(
      async () => finish(await login({ ...values, rememberMe: Boolean(values.rememberMe) })),
      t('errors.loginFailed'),
    );

  const onVerify = (values: { mfaCode: string }) =>
    run(async () => {
      if (!mfa) return;
      finish(
        await verifyTotp({
          username: mfa.username,
          mfaToken: mfa.mfaToken,
          mfaCode: values.mfaCode,
          rememberMe: mfa.rememberMe,
        }),
      );
    }, t('errors.verifyFailed'));

  const onCreateAdmin = (values: CreateAdminValues) =>
    run(async () => {
      await createAdministrator(values);
      // the form stays as it is, busy, until the new administrator is signed in: the sign-in
      // form shows only if that fails
      try {
        finish(
          await login({ username: values.username, password: values.password, rememberMe: true }),
        );
      } finally {
        queryClient.setQueryData(authKeys.hasUser, true);
      }
    }, t('errors.createFailed'));

  const firstRun = hasUser.data === false;

  let body;
  if (hasUser.isPending) {
    body = <Skeleton active paragraph={{ rows: 6 }} />;
  } else if (mfa?.kind === 'enrol') {
    body = (
      <Suspense fallback={<Skeleton active />}>
        <EnrolStep step={mfa} onDone={finish} />
      </Suspense>
    );
  } else if (mfa) {
    body = (
      <>
        <h2>{t('mfa.title')}</h2>
        <p className="nb-login__lead">{t('mfa.lead')}</p>
        <Form<{ mfaCode: string }>
          layout="vertical"
          onFinish={(v) => void onVerify(v)}
          requiredMark={false}
          size="large"
        >
          <Form.Item
            name="mfaCode"
            label={t('mfa.code')}
            rules={[
              { required: true, message: t('validation.codeRequired') },
              recovery
                ? { min: 6, max: 16, message: t('validation.recoveryPattern') }
                : { pattern: /^\d{6}$/, message: t('validation.codePattern') },
            ]}
          >
            {recovery ? (
              <Input
                autoFocus
                maxLength={16}
                autoComplete="one-time-code"
                data-testid="login-mfa-recovery"
                aria-label={t('mfa.recoveryCode')}
              />
            ) : (
              <OTP length={6} autoFocus data-testid="login-mfa-code" aria-label={t('mfa.code')} />
            )}
          </Form.Item>
          <Button
            type="link"
            size="small"
            style={{ padding: 0, marginBottom: 12 }}
            onClick={() => setRecovery((on) => !on)}
            data-testid="login-mfa-use-recovery"
          >
            {recovery ? t('mfa.useApp') : t('mfa.useRecovery')}
          </Button>
          <FormError error={error} />
          <Button
            type="primary"
            htmlType="submit"
            block
            loading={busy}
            data-testid="login-mfa-submit"
          >
            {t('mfa.verify')}
          </Button>
          <Button
            type="link"
            block
            icon={<ArrowLeftOutlined />}
            style={{ marginTop: 8 }}
            onClick={() => {
              setMfa(null);
              setError(null);
            }}
          >
            {t('mfa.back')}
          </Button>
        </Form>
      </>
    );
  } else if (firstRun) {
    body = (
      <>
        <h2>{t('setup.title')}</h2>
        <p className="nb-login__lead">{t('setup.lead', { name })}</p>
        <Form<CreateAdminValues>
          layout="vertical"
          onFinish={(v) => void onCreateAdmin(v)}
          requiredMark={false}
          size="large"
          data-testid="create-admin-form"
        >
          <UsernameField strict />
          <NewPasswordFields
            passwordLabel={t('fields.password')}
            confirmLabel={t('fields.confirm')}
            testIds={{ password: 'login-password', confirm: 'login-confirm' }}
          />
          <FormError error={error} />
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('setup.submit')}
          </Button>
        </Form>
      </>
    );
  } else {
    body = (
      <>
        <h2>{t('login.title')}</h2>
        <p className="nb-login__lead">{t('login.lead', { name })}</p>
        <Form<Credentials>
          form={loginForm}
          layout="vertical"
          onFinish={(v) => void onLogin(v)}
          requiredMark={false}
          size="large"
          initialValues={{ rememberMe: true }}
          data-testid="login-form"
        >
          <UsernameField strict={false} />
          <Form.Item name="password" label={t('fields.password')} rules={passwordRules(t)}>
            <Password
              prefix={<LockOutlined />}
              autoComplete="current-password"
              data-testid="login-password"
            />
          </Form.Item>
          <Form.Item name="rememberMe" valuePropName="checked" style={{ marginBottom: 20 }}>
            <Checkbox data-testid="login-remember">{t('fields.rememberMe')}</Checkbox>
          </Form.Item>
          <FormError error={error} />
          <Button type="primary" htmlType="submit" block loading={busy} data-testid="login-submit">
            {t('login.submit')}
          </Button>
        </Form>
      </>
    );
  }

  return (
    <main className="nb-login" data-testid="login-page">
      <section className="nb-login__hero" aria-hidden="true">
        <div className="nb-login__brand">
          <img src={logo} alt="" />
          <span>{name}</span>
        </div>
        <div className="nb-login__pitch">
          <h1>{t('hero.title')}</h1>
          <p>{t('hero.subtitle')}</p>
        </div>
        <div className="nb-login__features">
          <span>
            <CloudSyncOutlined /> {t('hero.sync')}
          </span>
          <span>
            <ShareAltOutlined /> {t('hero.share')}
          </span>
          <span>
            <SafetyCertificateOutlined /> {t('hero.private')}
          </span>
        </div>
      </section>
      <section className="nb-login__panel">
        <div className="nb-login__toolbar">
          <LanguageSwitch />
          <ThemeSwitch />
        </div>
        <div className="nb-login__form">
          <div className="nb-login__mobile-brand">
            <img src={logo} alt="" />
            <span data-testid="login-drive-name">{name}</span>
          </div>
          {body}
        </div>
        <div className="nb-login__footer">
          {t('footer', { name, version: PRODUCT_VERSION })}
          <FooterText />
        </div>
      </section>
    </main>
  );
}
