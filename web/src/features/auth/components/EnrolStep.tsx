import type { MfaSetup } from '@nimbus/contract';
import { Alert, Button, Skeleton } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { failureText } from '../failure';
import { initVerifyTotp, type LoginOutcome } from '../api';
import { fetchMfaSetup } from '../../../api/security';
import { EnrolForm, RecoveryCodes } from '../../../components/EnrolForm';
import '../../../i18n/drive-texts';

/**
 * The sign-in step of an account that must enrol before it gets in: the QR code, the first
 * code, then the recovery codes once, then on into the drive.
 */
export function EnrolStep({
  step,
  onDone,
}: {
  step: Extract<LoginOutcome, { kind: 'enrol' }>;
  onDone: (outcome: LoginOutcome) => void;
}) {
  const { t } = useTranslation('security');
  const [setup, setSetup] = useState<MfaSetup | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [done, setDone] = useState<{ outcome: LoginOutcome; codes: string[] } | null>(null);

  useEffect(() => {
    fetchMfaSetup({ username: step.username, mfaToken: step.mfaToken }).then(setSetup, (err) =>
      setError(failureText(err, t('mfa.setupTitle'))),
    );
  }, [step, t]);

  const submit = async (code: string) => {
    if (!setup) return;
    setBusy(true);
    setError(null);
    try {
      const result = await initVerifyTotp({
        username: step.username,
        mfaToken: step.mfaToken,
        mfaSecret: setup.secret,
        mfaCode: code,
        rememberMe: step.rememberMe,
      });
      setDone({ outcome: result.outcome, codes: result.recoveryCodes });
    } catch (err) {
      setError(failureText(err, t('mfa.codeRule')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <div data-testid="login-mfa-enrol">
      <h2>{t('mfa.enrolTitle')}</h2>
      <p className="nb-login__lead">{t('mfa.enrolLead')}</p>
      {error ? <Alert type="error" showIcon message={error} style={{ marginBottom: 12 }} /> : null}
      {done ? (
        <>
          <RecoveryCodes codes={done.codes} />
          <Button
            type="primary"
            block
            onClick={() => onDone(done.outcome)}
            data-testid="mfa-continue"
          >
            {t('mfa.done')}
          </Button>
        </>
      ) : setup ? (
        <EnrolForm setup={setup} busy={busy} onSubmit={(code) => void submit(code)} />
      ) : error ? null : (
        <Skeleton active paragraph={{ rows: 5 }} />
      )}
    </div>
  );
}
