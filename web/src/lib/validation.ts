import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_PATTERN } from '@nimbus/contract';
import type { FormRule as Rule } from 'antd';
import type { TFunction } from 'i18next';

/**
 * spec §5 login rules. Each check gives the translated reason a value is refused, or null: the
 * sign-in page uses them as they are, the drive's antd forms through the rules below.
 */
export function usernameProblem(
  t: TFunction<'auth'>,
  value: string | undefined,
  strict: boolean,
): string | null {
  if (!value?.trim()) return t('validation.usernameRequired');
  if (strict && !USERNAME_PATTERN.test(value.trim())) return t('validation.usernamePattern');
  return null;
}

export function passwordProblem(t: TFunction<'auth'>, value: string | undefined): string | null {
  if (!value) return t('validation.passwordRequired');
  if (value.length < PASSWORD_MIN_LENGTH)
    return t('validation.passwordMin', { min: PASSWORD_MIN_LENGTH });
  if (value.length > PASSWORD_MAX_LENGTH)
    return t('validation.passwordMax', { max: PASSWORD_MAX_LENGTH });
  return null;
}

export function confirmProblem(
  t: TFunction<'auth'>,
  value: string | undefined,
  password: string | undefined,
): string | null {
  if (!value) return t('validation.confirmRequired');
  if (value !== password) return t('validation.passwordMismatch');
  return null;
}

/** The rest of a check, after "required", as an antd rule: refused with the check's reason. */
const beyondRequired = (check: (value: string) => string | null) => ({
  validator: (_: unknown, value: string | undefined) => {
    const problem = value ? check(value) : null;
    return problem ? Promise.reject(new Error(problem)) : Promise.resolve();
  },
});

export function usernameRules(t: TFunction<'auth'>, strict: boolean): Rule[] {
  return [
    { required: true, whitespace: true, message: t('validation.usernameRequired') },
    beyondRequired((value) => usernameProblem(t, value, strict)),
  ];
}

export function passwordRules(t: TFunction<'auth'>): Rule[] {
  return [
    { required: true, message: t('validation.passwordRequired') },
    beyondRequired((value) => passwordProblem(t, value)),
  ];
}

/** Confirm-password rule: must equal the `password` field ('Password does not match'). */
export function confirmRules(t: TFunction<'auth'>, field = 'password'): Rule[] {
  return [
    { required: true, message: t('validation.confirmRequired') },
    ({ getFieldValue }) =>
      beyondRequired((value) => confirmProblem(t, value, getFieldValue(field) as string)),
  ];
}
