import { Button, Card, Form, Input, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate } from 'react-router';
import { resetPassword } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { ResetPasswordBody } from '@/api/auth/types';
import { RequestError } from '@/api/request';
import LanguageSwitch from '@/components/LanguageSwitch';
import SmsCodeButton from '@/components/SmsCodeButton';
import { feedback } from '@/utils/feedback';
import { confirmRules, mobileRules, passwordRules, smsCodeRules } from '@/utils/validators';

export default function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [form] = Form.useForm<ResetPasswordBody>();
  const submitting = useWrite(resetPassword);

  const onFinish = async (values: ResetPasswordBody) => {
    try {
      await submitting.mutateAsync(values);
      feedback.success(t('reset.success'));
      navigate('/login', { replace: true });
    } catch (error) {
      if (error instanceof RequestError && error.field) {
        form.setFields([{ name: error.field as keyof ResetPasswordBody, errors: [error.message] }]);
      }
    }
  };

  return (
    <div className="cm-login">
      <div className="cm-login-top">
        <LanguageSwitch />
      </div>
      <Card className="cm-login-card" title={t('reset.title')}>
        <Form<ResetPasswordBody> form={form} layout="vertical" onFinish={onFinish} data-testid="reset-form">
          <Form.Item name="mobile" label={t('login.mobile')} rules={mobileRules(t)}>
            <Input data-testid="reset-mobile" />
          </Form.Item>
          <Form.Item label={t('login.code')} required>
            <Space.Compact style={{ width: '100%' }}>
              <Form.Item name="code" noStyle rules={smsCodeRules(t)}>
                <Input maxLength={6} data-testid="reset-code" />
              </Form.Item>
              <SmsCodeButton form={form} scene="reset" testId="reset-send-code" />
            </Space.Compact>
          </Form.Item>
          <Form.Item name="password" label={t('reset.newPassword')} rules={passwordRules(t)}>
            <Input.Password autoComplete="new-password" data-testid="reset-password" />
          </Form.Item>
          <Form.Item name="password_confirm" label={t('register.confirm')} dependencies={['password']} rules={confirmRules(t)}>
            <Input.Password autoComplete="new-password" data-testid="reset-password-confirm" />
          </Form.Item>
          <Button type="primary" htmlType="submit" block loading={submitting.isPending} data-testid="reset-submit">
            {t('reset.submit')}
          </Button>
          <Typography.Paragraph style={{ marginTop: 12, textAlign: 'center' }}>
            <Link to="/login">{t('register.toLogin')}</Link>
          </Typography.Paragraph>
        </Form>
      </Card>
    </div>
  );
}
