import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, USERNAME_PATTERN } from '@nimbus/contract';
import type { FormRule as Rule } from 'antd';
import type { TFunction } from 'i18next';

/** spec §5 login rules, as antd form rules with translated messages. */
export function usernameRules(t: TFunction<'auth'>, strict: boolean): Rule[] {
  return [
    { required: true, whitespace: true, message: t('validation.usernameRequired') },
    ...(strict
      ? [
          {
            validator: (_: unknown, value: string | undefined) =>
              !value || USERNAME_PATTERN.test(value.trim())
                ? Promise.resolve()
                : Promise.reject(new Error(t('validation.usernamePattern'))),
          },
        ]
      : []),
  ];
}

export function passwordRules(t: TFunction<'auth'>): Rule[] {
  return [
    { required: true, message: t('validation.passwordRequired') },
    {
      min: PASSWORD_MIN_LENGTH,
      message: t('validation.passwordMin', { min: PASSWORD_MIN_LENGTH }),
    },
    {
      max: PASSWORD_MAX_LENGTH,
      message: t('validation.passwordMax', { max: PASSWORD_MAX_LENGTH }),
    },
  ];
}

/** Confirm-password rule: must equal the `password` field ('Password does not match'). */
export function confirmRules(t: TFunction<'auth'>, field = 'password'): Rule[] {
  return [
    { required: true, message: t('validation.confirmRequired') },
    ({ getFieldValue }) => ({
      validator: (_: unknown, value: string | undefined) =>
        !value || getFieldValue(field) === value
          ? Promise.resolve()
          : Promise.reject(new Error(t('validation.passwordMismatch'))),
    }),
  ];
}
