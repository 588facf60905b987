import { PRODUCT_VERSION } from '@nimbus/contract';
import {
  lazy,
  Suspense,
  useId,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import { useTranslation } from 'react-i18next';
import { useHasUser } from '../../../api/account';
import { loadAntdProviders } from '../../../components/antd-loader';
import {
  AlertIcon,
  ArrowLeftIcon,
  CloudIcon,
  EyeIcon,
  EyeOffIcon,
  LockIcon,
  ShareIcon,
  ShieldIcon,
  UserIcon,
} from '../../../components/icons';
import { LanguageSwitch } from '../../../components/LanguageSwitch';
import { ThemeSwitch } from '../../../components/ThemeSwitch';
import { withDriveTexts } from '../../../i18n';
import { useBranding } from '../../../api/branding';
import { login, useCreateAdministrator, verifyTotp, type LoginOutcome } from '../api';
import { FooterText } from '../../../components/FooterText';
import { failureText } from '../failure';
import { useSignIn } from '../session';
import { confirmProblem, passwordProblem, usernameProblem } from '../../../lib/validation';
import './login.css';

// The sign-in page is drawn without Ant Design: a first visit carries only this page, and the
// drive's antd comes once the person is in. Enrolment in a second factor draws a QR code with
// antd: loaded (with antd's theme) only for the user who must enrol.
const EnrolStep = lazy(async () => {
  const [{ EnrolStep: Step }, { AntdProviders }] = await Promise.all([
    withDriveTexts(import('../components/EnrolStep')),
    loadAntdProviders(),
  ]);
  return {
    default: (props: Parameters<typeof Step>[0]) => (
      <AntdProviders>
        <Step {...props} />
      </AntdProviders>
    ),
  };
});

type MfaStep = Extract<LoginOutcome, { kind: 'mfa' | 'enrol' }>;

/** A labelled field: its input, an optional icon before it, and why its value is refused. */
function Field({
  label,
  error,
  icon,
  reveal,
  testId,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & {
  label: string;
  error?: string | null;
  icon?: ReactNode;
  /** A password field: a button shows or hides what was typed. */
  reveal?: boolean;
  testId: string;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [shown, setShown] = useState(false);
  return (
    <div className="nb-field">
      <label className="nb-field__label" htmlFor={id}>
        {label}
      </label>
      <div className={`nb-input${error ? ' nb-input--error' : ''}`}>
        {icon ? <span className="nb-input__icon">{icon}</span> : null}
        <input
          {...input}
          id={id}
          type={reveal ? (shown ? 'text' : 'password') : (input.type ?? 'text')}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          data-testid={testId}
        />
        {reveal ? (
          <button
            type="button"
            className="nb-input__reveal"
            aria-label={t(shown ? 'hidePassword' : 'showPassword')}
            aria-pressed={shown}
            onClick={() => setShown((on) => !on)}
          >
            {shown ? <EyeIcon /> : <EyeOffIcon />}
          </button>
        ) : null}
      </div>
      {error ? (
        <div className="nb-field__error" id={`${id}-error`} role="alert">
          {error}
        </div>
      ) : null}
    </div>
  );
}

/** The username of the sign-in and first-run forms, focused when the page opens. */
function UsernameField(bound: ReturnType<ReturnType<typeof useChecked>['bind']>) {
  const { t } = useTranslation('auth');
  return (
    <Field
      label={t('fields.username')}
      icon={<UserIcon />}
      autoComplete="username"
      autoFocus
      testId="login-username"
      {...bound}
    />
  );
}

function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <div className="nb-login__alert" role="alert" data-testid="login-error">
      <AlertIcon />
      <span>{error}</span>
    </div>
  );
}

function SubmitButton({
  busy,
  testId,
  children,
}: {
  busy: boolean;
  testId: string;
  children: ReactNode;
}) {
  return (
    <button
      type="submit"
      className="nb-login__submit"
      disabled={busy}
      aria-busy={busy || undefined}
      data-testid={testId}
    >
      {busy ? <span className="nb-login__busy" aria-hidden="true" /> : null}
      {children}
    </button>
  );
}

/** Grey bars in the form's place while the page learns whether the drive has users. */
function FormSkeleton() {
  return (
    <div className="nb-skeleton" aria-hidden="true">
      <span style={{ width: '45%', height: 28 }} />
      <span style={{ width: '70%' }} />
      <span style={{ width: '25%', marginTop: 24 }} />
      <span style={{ height: 40 }} />
      <span style={{ width: '25%', marginTop: 16 }} />
      <span style={{ height: 40 }} />
      <span style={{ height: 40, marginTop: 24 }} />
    </div>
  );
}

/**
 * A form's values and the reasons they are refused: nothing is said until the first submit,
 * after which every change is checked again (as a person corrects what was pointed out).
 */
function useChecked<V extends Record<string, string>>(
  initial: V,
  check: (values: V) => Partial<Record<keyof V, string | null>>,
) {
  const [values, setValues] = useState(initial);
  const [tried, setTried] = useState(false);
  const problems: Partial<Record<keyof V, string | null>> = tried ? check(values) : {};
  const bind = (name: keyof V) => ({
    name: name as string,
    value: values[name],
    error: problems[name] ?? null,
    onChange: (event: { target: { value: string } }) =>
      setValues((now) => ({ ...now, [name]: event.target.value })),
  });
  /** The values if they pass, else null (and the problems show). */
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    const found = check(values);
    return Object.values(found).some(Boolean) ? null : values;
  };
  return { values, bind, submit };
}

function SignInForm({
  busy,
  error,
  onSubmit,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (values: { username: string; password: string; rememberMe: boolean }) => void;
}) {
  const { t } = useTranslation('auth');
  const [rememberMe, setRememberMe] = useState(true);
  const form = useChecked({ username: '', password: '' }, (v) => ({
    username: usernameProblem(t, v.username, false),
    password: passwordProblem(t, v.password),
  }));
  return (
    <form
      className="nb-login__fields"
      noValidate
      data-testid="login-form"
      onSubmit={(event) => {
        const values = form.submit(event);
        if (values) onSubmit({ ...values, rememberMe });
      }}
    >
      <UsernameField {...form.bind('username')} />
      <Field
        label={t('fields.password')}
        icon={<LockIcon />}
        reveal
        autoComplete="current-password"
        testId="login-password"
        {...form.bind('password')}
      />
      <label className="nb-check">
        <input
          type="checkbox"
          checked={rememberMe}
          onChange={(event) => setRememberMe(event.target.checked)}
          data-testid="login-remember"
        />
        <span>{t('fields.rememberMe')}</span>
      </label>
      <FormError error={error} />
      <SubmitButton busy={busy} testId="login-submit">
        {t('login.submit')}
      </SubmitButton>
    </form>
  );
}

function CreateAdminForm({
  busy,
  error,
  onSubmit,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (values: { username: string; password: string; confirm: string }) => void;
}) {
  const { t } = useTranslation('auth');
  const form = useChecked({ username: '', password: '', confirm: '' }, (v) => ({
    username: usernameProblem(t, v.username, true),
    password: passwordProblem(t, v.password),
    confirm: confirmProblem(t, v.confirm, v.password),
  }));
  return (
    <form
      className="nb-login__fields"
      noValidate
      data-testid="create-admin-form"
      onSubmit={(event) => {
        const values = form.submit(event);
        if (values) onSubmit(values);
      }}
    >
      <UsernameField {...form.bind('username')} />
      <Field
        label={t('fields.password')}
        icon={<LockIcon />}
        reveal
        autoComplete="new-password"
        testId="login-password"
        {...form.bind('password')}
      />
      <Field
        label={t('fields.confirm')}
        icon={<LockIcon />}
        reveal
        autoComplete="new-password"
        testId="login-confirm"
        {...form.bind('confirm')}
      />
      <FormError error={error} />
      <SubmitButton busy={busy} testId="login-submit">
        {t('setup.submit')}
      </SubmitButton>
    </form>
  );
}

/** The second step: the app's six digits, or one of the recovery codes. */
function VerifyForm({
  busy,
  error,
  onSubmit,
  onBack,
}: {
  busy: boolean;
  error: string | null;
  onSubmit: (code: string) => void;
  onBack: () => void;
}) {
  const { t } = useTranslation('auth');
  const [recovery, setRecovery] = useState(false);
  const form = useChecked({ mfaCode: '' }, (v) => {
    const code = v.mfaCode.trim();
    if (!code) return { mfaCode: t('validation.codeRequired') };
    if (recovery)
      return {
        mfaCode: code.length < 6 || code.length > 16 ? t('validation.recoveryPattern') : null,
      };
    return { mfaCode: /^\d{6}$/.test(code) ? null : t('validation.codePattern') };
  });
  const field = form.bind('mfaCode');
  return (
    <form
      className="nb-login__fields"
      noValidate
      onSubmit={(event) => {
        const values = form.submit(event);
        if (values) onSubmit(values.mfaCode.trim());
      }}
    >
      <div data-testid={recovery ? undefined : 'login-mfa-code'}>
        <Field
          key={recovery ? 'recovery' : 'code'}
          label={recovery ? t('mfa.recoveryCode') : t('mfa.code')}
          autoFocus
          autoComplete="one-time-code"
          maxLength={recovery ? 16 : 6}
          inputMode={recovery ? 'text' : 'numeric'}
          className={recovery ? undefined : 'nb-input__code'}
          testId={recovery ? 'login-mfa-recovery' : 'login-mfa-code-input'}
          {...field}
          onChange={(event) =>
            field.onChange({
              target: {
                value: recovery ? event.target.value : event.target.value.replace(/\D/g, ''),
              },
            })
          }
        />
      </div>
      <button
        type="button"
        className="nb-login__link"
        onClick={() => {
          setRecovery((on) => !on);
          field.onChange({ target: { value: '' } });
        }}
        data-testid="login-mfa-use-recovery"
      >
        {recovery ? t('mfa.useApp') : t('mfa.useRecovery')}
      </button>
      <FormError error={error} />
      <SubmitButton busy={busy} testId="login-mfa-submit">
        {t('mfa.verify')}
      </SubmitButton>
      <button type="button" className="nb-login__link nb-login__back" onClick={onBack}>
        <ArrowLeftIcon />
        {t('mfa.back')}
      </button>
    </form>
  );
}

/** /login and /login_m: sign in, the verification-code step, or first-run "create admin" (spec §2). */
export function LoginPage() {
  const { t } = useTranslation('auth');
  const { name, logo } = useBranding();
  const hasUser = useHasUser();
  const creating = useCreateAdministrator();
  const signIn = useSignIn();
  const [mfa, setMfa] = useState<MfaStep | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const finish = (outcome: LoginOutcome) => {
    if (outcome.kind !== 'session') {
      setMfa(outcome);
      return;
    }
    signIn(outcome);
  };

  const run = async (action: () => Promise<void>, fallback: string) => {
    setBusy(true);
    setError(null);
    // the drive's code comes while the server checks the password
    void loadAntdProviders().catch(() => undefined);
    try {
      await action();
    } catch (caught) {
      setError(failureText(caught, fallback));
    } finally {
      setBusy(false);
    }
  };

  const onLogin = (values: { username: string; password: string; rememberMe: boolean }) =>
    run(async () => finish(await login(values)), t('errors.loginFailed'));

  const onVerify = (mfaCode: string) =>
    run(async () => {
      if (!mfa) return;
      finish(
        await verifyTotp({
          username: mfa.username,
          mfaToken: mfa.mfaToken,
          mfaCode,
          rememberMe: mfa.rememberMe,
        }),
      );
    }, t('errors.verifyFailed'));

  const onCreateAdmin = (values: { username: string; password: string; confirm: string }) =>
    run(async () => finish(await creating.mutateAsync(values)), t('errors.createFailed'));

  const firstRun = hasUser.data === false;

  let body;
  if (hasUser.isPending) {
    body = <FormSkeleton />;
  } else if (mfa?.kind === 'enrol') {
    body = (
      <Suspense fallback={<FormSkeleton />}>
        <EnrolStep step={mfa} onDone={finish} />
      </Suspense>
    );
  } else if (mfa) {
    body = (
      <>
        <h2>{t('mfa.title')}</h2>
        <p className="nb-login__lead">{t('mfa.lead')}</p>
        <VerifyForm
          busy={busy}
          error={error}
          onSubmit={(code) => void onVerify(code)}
          onBack={() => {
            setMfa(null);
            setError(null);
          }}
        />
      </>
    );
  } else if (firstRun) {
    body = (
      <>
        <h2>{t('setup.title')}</h2>
        <p className="nb-login__lead">{t('setup.lead', { name })}</p>
        <CreateAdminForm busy={busy} error={error} onSubmit={(v) => void onCreateAdmin(v)} />
      </>
    );
  } else {
    body = (
      <>
        <h2>{t('login.title')}</h2>
        <p className="nb-login__lead">{t('login.lead', { name })}</p>
        <SignInForm busy={busy} error={error} onSubmit={(v) => void onLogin(v)} />
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
            <CloudIcon /> {t('hero.sync')}
          </span>
          <span>
            <ShareIcon /> {t('hero.share')}
          </span>
          <span>
            <ShieldIcon /> {t('hero.private')}
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
