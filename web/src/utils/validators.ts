import type { FormInstance } from 'antd';
import type { Rule } from 'antd/es/form';
import type { TFunction } from 'i18next';

export const MOBILE_RE = /^1[3-9]\d{9}$/;
export const SMS_CODE_RE = /^\d{6}$/;
export const PASSWORD_RE = /^(?=.*[A-Za-z])(?=.*\d).{8,}$/;

/** New password: 8+ characters with letters and digits (SPEC §5). */
export function passwordRules(t: TFunction, required = true): Rule[] {
  return [
    { required, message: t('validation.passwordRequired') },
    { pattern: PASSWORD_RE, message: t('validation.passwordRule') },
  ];
}

/** Confirmation must match the field `field`: 'The passwords entered twice are inconsistent'. */
export function confirmRules(t: TFunction, field = 'password'): Rule[] {
  return [
    { required: true, message: t('validation.confirmRequired') },
    ({ getFieldValue }: Pick<FormInstance, 'getFieldValue'>) => ({
      validator(_: unknown, value: string) {
        if (!value || getFieldValue(field) === value) return Promise.resolve();
        return Promise.reject(new Error(t('validation.passwordMismatch')));
      },
    }),
  ];
}

export function mobileRules(t: TFunction, required = true): Rule[] {
  return [
    { required, message: t('validation.mobileRequired') },
    { pattern: MOBILE_RE, message: t('validation.mobileRule') },
  ];
}

export function smsCodeRules(t: TFunction): Rule[] {
  return [
    { required: true, message: t('validation.codeRequired') },
    { pattern: SMS_CODE_RE, message: t('validation.codeRule') },
  ];
}
