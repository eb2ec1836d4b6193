import { Checkbox, Form } from 'antd';
import { useTranslation } from 'react-i18next';
import type { LoginIndex } from '@/api/auth/types';

/** The service + privacy agreement checkbox every sign-in and sign-up form requires (SPEC §5). */
export default function AgreementField({ agreements, testId }: { agreements?: LoginIndex['agreements']; testId: string }) {
  const { t } = useTranslation('auth');
  const service = agreements?.service_title || t('login.serviceAgreement');
  const privacy = agreements?.privacy_title || t('login.privacyAgreement');
  return (
    <Form.Item
      name="agree"
      valuePropName="checked"
      rules={[
        {
          validator: (_, value: boolean) =>
            value ? Promise.resolve() : Promise.reject(new Error(t('login.agreeRequired'))),
        },
      ]}
    >
      <Checkbox data-testid={testId}>
        {t('login.agreePrefix')}{' '}
        <a href={agreements?.service_url || '#'} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          《{service}》
        </a>{' '}
        {t('login.and')}{' '}
        <a href={agreements?.privacy_url || '#'} target="_blank" rel="noreferrer" onClick={(e) => e.stopPropagation()}>
          《{privacy}》
        </a>
      </Checkbox>
    </Form.Item>
  );
}
