import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { fetchLoginIndex, register } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { RegisterBody } from '@/api/auth/types';
import { RequestError } from '@/api/request';
import LanguageSwitch from '@/components/LanguageSwitch';
import SmsCodeButton from '@/components/SmsCodeButton';
import { saveLogin } from '@/store/session';
import { feedback } from '@/utils/feedback';
import { confirmRules, mobileRules, passwordRules, smsCodeRules } from '@/utils/validators';
import AgreementField from '../login/AgreementField';

export default function RegisterPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<RegisterBody>();
  const submitting = useWrite(register);
  const info = useQuery({ queryKey: ['loginIndex'], queryFn: fetchLoginIndex, staleTime: 300_000 });

  const onFinish = async (values: RegisterBody) => {
    try {
      saveLogin(await submitting.mutateAsync({ ...values, agree: Boolean(values.agree) }));
      feedback.success(t('register.success'));
      navigate('/', { replace: true });
    } catch (error) {
      if (error instanceof RequestError && error.field) {
        form.setFields([{ name: error.field as keyof RegisterBody, errors: [error.message] }]);
      }
    }
  };

  return (
    <div className="cm-login">
      <div className="cm-login-top">
        <LanguageSwitch />
      </div>
      <Card className="cm-login-card" title={t('register.title')}>
        <Form<RegisterBody> form={form} layout="vertical" onFinish={onFinish} data-testid="register-form">
          <Form.Item name="merchant_name" label={t('register.merchantName')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
            <Input data-testid="register-merchant" />
          </Form.Item>
          <Form.Item name="username" label={t('login.username')} rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
            <Input autoComplete="username" data-testid="register-username" />
          </Form.Item>
          <Form.Item name="mobile" label={t('login.mobile')} rules={mobileRules(t)}>
            <Input data-testid="register-mobile" />
          </Form.Item>
          <Form.Item label={t('login.code')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={smsCodeRules(t)}>
                <Input maxLength={6} data-testid="register-code" />
              </Form.Item>
              <SmsCodeButton form={form} scene="register" testId="register-send-code" />
            </Space.Compact>
          </Form.Item>
          <Form.Item name="password" label={t('login.password')} rules={passwordRules(t)}>
            <Input.Password autoComplete="new-password" data-testid="register-password" />
          </Form.Item>
          <Form.Item name="password_confirm" label={t('register.confirm')} dependencies={['password']} rules={confirmRules(t)}>
            <Input.Password autoComplete="new-password" data-testid="register-password-confirm" />
          </Form.Item>
          <AgreementField agreements={info.data?.agreements} testId="register-agree" />
          <Button type="primary" htmlType="submit" block loading={submitting.isPending} data-testid="register-submit">
            {t('register.submit')}
          </Button>
          <Typography.Paragraph style={{ marginTop: 12, textAlign: 'center' }}>
            <Link to="/login">{t('register.toLogin')}</Link>
          </Typography.Paragraph>
        </Form>
      </Card>
    </div>
  );
}
