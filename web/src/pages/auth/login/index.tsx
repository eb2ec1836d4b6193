import { LockOutlined, MobileOutlined, SafetyOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Checkbox, Form, Input, Space, Spin, Tabs, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useSearchParams } from 'react-router';
import { fetchLoginIndex, login, verifyJwtToken } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { LoginBody, LoginResult, LoginType } from '@/api/auth/types';
import { RequestError } from '@/api/request';
import LanguageSwitch from '@/components/LanguageSwitch';
import SmsCodeButton from '@/components/SmsCodeButton';
import { APP_VERSION } from '@/config';
import { isLoggedIn, saveLogin } from '@/store/session';
import { feedback } from '@/utils/feedback';
import { mobileRules, smsCodeRules } from '@/utils/validators';
import AgreementField from './AgreementField';

interface LoginValues {
  username?: string;
  password?: string;
  mobile?: string;
  code?: string;
  agree?: boolean;
  remember?: boolean;
}

/** A proxy token is single use: share the one request between React's double effects. */
const proxyLogins = new Map<string, Promise<LoginResult>>();

/** The tab a link preselects with `?type=1|2|3` (a staff member's shared sign-in uses 3); else the account tab. */
export function initialLoginType(value: string | null): LoginType {
  const n = Number(value);
  return n === 1 || n === 2 || n === 3 ? n : 1;
}

export function safeRedirect(value: string | null): string {
  return value && value.startsWith('/') && !value.startsWith('//') && !value.startsWith('/login') ? value : '/';
}

export default function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const proxyToken = params.get('proxyToken');
  const redirect = safeRedirect(params.get('redirect'));
  const [form] = Form.useForm<LoginValues>();
  const [tab, setTab] = useState<LoginType>(() => initialLoginType(params.get('type')));
  const sharedUsername = params.get('username')?.trim() || undefined;
  const submitting = useWrite(login);
  const [proxying, setProxying] = useState(Boolean(proxyToken));
  const info = useQuery({ queryKey: ['loginIndex'], queryFn: fetchLoginIndex, staleTime: 300_000 });

  useEffect(() => {
    if (!proxyToken) return;
    let pending = proxyLogins.get(proxyToken);
    if (!pending) {
      pending = verifyJwtToken(proxyToken);
      proxyLogins.set(proxyToken, pending);
    }
    let active = true;
    pending.then(
      (result) => {
        if (!active) return;
        saveLogin(result, Date.now(), { proxy: true });
        feedback.success(t('login.proxySuccess'));
        navigate('/', { replace: true });
      },
      () => {
        if (active) setProxying(false);
      },
    );
    return () => {
      active = false;
    };
  }, [proxyToken, navigate, t]);

  if (!proxyToken && isLoggedIn()) return <Navigate to={redirect} replace />;

  const loginTypes: LoginType[] = info.data?.login_types?.length ? info.data.login_types : [1, 2, 3];
  const rememberHours = info.data?.remember_hours ?? 24;

  const onFinish = async (values: LoginValues) => {
    const body: LoginBody =
      tab === 2
        ? { login_type: 2, mobile: values.mobile, code: values.code, agree: Boolean(values.agree), remember: Boolean(values.remember) }
        : {
            login_type: tab,
            username: values.username?.trim(),
            password: values.password,
            agree: Boolean(values.agree),
            remember: Boolean(values.remember),
          };
    try {
      const result = await submitting.mutateAsync(body);
      saveLogin(result);
      feedback.success(t('login.success'));
      navigate(redirect, { replace: true });
    } catch (error) {
      if (error instanceof RequestError && error.field && error.field in values) {
        form.setFields([{ name: error.field as keyof LoginValues, errors: [error.message] }]);
      }
    }
  };

  const tabLabel: Record<LoginType, { key: string; text: string }> = {
    1: { key: 'account', text: t('login.tabAccount') },
    2: { key: 'mobile', text: t('login.tabMobile') },
    3: { key: 'staff', text: t('login.tabStaff') },
  };

  return (
    <div className="cm-login">
      <div className="cm-login-top">
        <LanguageSwitch />
      </div>
      <Card className="cm-login-card" data-testid="login-card">
        <Space orientation="vertical" style={{ width: '100%', textAlign: 'center', marginBottom: 8 }} size={0}>
          <Typography.Title level={3} style={{ marginBottom: 0 }}>
            {info.data?.app_name || t('common:appName')}
          </Typography.Title>
          <Typography.Text type="secondary">{t('login.subtitle')}</Typography.Text>
        </Space>
        {proxying ? (
          <div style={{ textAlign: 'center', padding: 32 }} data-testid="login-proxy">
            <Spin />
            <div style={{ marginTop: 12 }}>{t('login.proxying')}</div>
          </div>
        ) : (
          <>
            <Tabs
              activeKey={String(tab)}
              onChange={(key) => {
                setTab(Number(key) as LoginType);
                form.setFields([
                  { name: 'username', errors: [] },
                  { name: 'password', errors: [] },
                  { name: 'mobile', errors: [] },
                  { name: 'code', errors: [] },
                ]);
              }}
              centered
              items={loginTypes.map((type) => ({
                key: String(type),
                label: <span data-testid={`login-tab-${tabLabel[type].key}`}>{tabLabel[type].text}</span>,
              }))}
            />
            <Form<LoginValues>
              form={form}
              size="large"
              onFinish={onFinish}
              initialValues={{ agree: false, remember: false, username: sharedUsername }}
              data-testid="login-form"
            >
              {tab === 2 ? (
                <>
                  <Form.Item name="mobile" rules={mobileRules(t)}>
                    <Input prefix={<MobileOutlined />} placeholder={t('login.mobile')} autoComplete="tel" data-testid="login-mobile" />
                  </Form.Item>
                  <Form.Item required>
                    <Space.Compact style={{ width: '100%' }}>
                      <Form.Item name="code" noStyle rules={smsCodeRules(t)}>
                        <Input prefix={<SafetyOutlined />} placeholder={t('login.code')} maxLength={6} data-testid="login-code" />
                      </Form.Item>
                      <SmsCodeButton form={form} scene="login" testId="login-send-code" />
                    </Space.Compact>
                  </Form.Item>
                  {info.data?.sandbox && info.data.sandbox_sms ? (
                    <Typography.Paragraph type="secondary" style={{ marginTop: -12 }}>
                      <a href="/sandbox/sms" target="_blank" rel="noreferrer" data-testid="login-sandbox-sms">
                        {t('login.sandboxSms')}
                      </a>
                    </Typography.Paragraph>
                  ) : null}
                </>
              ) : (
                <>
                  <Form.Item name="username" rules={[{ required: true, whitespace: true, message: t('login.usernameRequired') }]}>
                    <Input
                      prefix={<UserOutlined />}
                      placeholder={tab === 3 ? t('login.staffUsername') : t('login.username')}
                      autoComplete="username"
                      data-testid="login-username"
                    />
                  </Form.Item>
                  <Form.Item name="password" rules={[{ required: true, message: t('login.passwordRequired') }]}>
                    <Input.Password
                      prefix={<LockOutlined />}
                      placeholder={t('login.password')}
                      autoComplete="current-password"
                      data-testid="login-password"
                    />
                  </Form.Item>
                </>
              )}
              <Form.Item name="remember" valuePropName="checked" style={{ marginBottom: 8 }}>
                <Checkbox data-testid="login-remember">{t('login.remember', { hours: rememberHours })}</Checkbox>
              </Form.Item>
              <AgreementField agreements={info.data?.agreements} testId="login-agree" />
              <Form.Item style={{ marginBottom: 8 }}>
                <Button type="primary" htmlType="submit" block loading={submitting.isPending} data-testid="login-submit">
                  {t('login.submit')}
                </Button>
              </Form.Item>
              <div style={{ display: 'flex', justifyContent: 'space-between' }}>
                <Link to="/user_register" data-testid="login-register-link">
                  {t('login.register')}
                </Link>
                <Link to="/reset_password" data-testid="login-reset-link">
                  {t('login.forgot')}
                </Link>
              </div>
            </Form>
          </>
        )}
        <Typography.Paragraph type="secondary" style={{ textAlign: 'center', marginTop: 16, marginBottom: 0 }}>
          v{info.data?.version || APP_VERSION}
        </Typography.Paragraph>
      </Card>
    </div>
  );
}
