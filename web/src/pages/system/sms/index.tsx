/**
 * /system/sms — the SMS gateway (Administrator): where sign-in, registration and password-reset codes
 * go. Aliyun SMS or Tencent Cloud SMS with the operator's keys (the secret is sealed on the server and
 * shown masked), sign name and one approved template per scene; or the server log, for development.
 * A test send shows the gateway's own answer, so a wrong key or an unapproved template is found here
 * and not by a merchant who never gets a code.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Radio, Space, Spin, Tag } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWrite } from '@/api/mutations';
import { fetchSmsGateway, saveSmsGateway, systemKeys, testSmsGateway } from '@/api/system';
import type { SmsGatewayReq, SmsProvider } from '@/api/system/types';
import PageHeader from '@/components/PageHeader';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { MOBILE, SMS_FIELD_MAX as FIELD_MAX, SMS_SIGN_NAME_MAX as SIGN_NAME_MAX } from '../rules';


type Values = Omit<SmsGatewayReq, 'provider'> & { provider: SmsProvider };

export default function SmsGatewayPage() {
  const { t } = useTranslation('system');
  const client = useQueryClient();
  const [form] = Form.useForm<Values>();
  const gateway = useQuery({ queryKey: systemKeys.sms, queryFn: fetchSmsGateway, retry: false });
  const write = useWrite(saveSmsGateway);
  const test = useWrite(testSmsGateway);
  const [mobile, setMobile] = useState('');
  const [tested, setTested] = useState<{ ok: boolean; text: string } | null>(null);
  const provider = Form.useWatch('provider', form) ?? 'log';
  const saved = gateway.data;

  useEffect(() => {
    if (saved) form.setFieldsValue({ ...saved, access_key_secret: '' });
  }, [saved, form]);

  const required = { required: true, whitespace: true, message: t('sms.required') };
  const max = (n: number) => ({ max: n, message: t('sms.tooLong', { max: n }) });
  const secretSaved = Boolean(saved?.access_key_secret) && saved?.provider === provider;

  const save = async () => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    const trimmed = Object.fromEntries(Object.entries(v).map(([k, x]) => [k, typeof x === 'string' ? x.trim() : x])) as Values;
    try {
      client.setQueryData(systemKeys.sms, await atFormField(form, write.mutateAsync(trimmed)));
      form.setFieldValue('access_key_secret', '');
      feedback.success(t('sms.saved'));
    } catch {
      /* shown at the field or toasted */
    }
  };

  const sendTest = async () => {
    setTested(null);
    try {
      const r = await test.mutateAsync(mobile.trim());
      setTested({ ok: true, text: r.logged ? t('sms.testLogged') : t('sms.testSent', { id: r.message_id }) });
    } catch (e) {
      setTested({ ok: false, text: e instanceof Error ? e.message : String(e) });
    }
  };

  const sandboxUrl = `${window.location.origin}/sandbox/sms/${provider === 'tencent' ? 'tencent' : 'aliyun'}`;

  return (
    <div data-testid="sms-gateway-page">
      <PageHeader title={t('common:menu.systemSms')} subTitle={t('sms.subtitle')} />
      <Card size="small">
        <Spin spinning={gateway.isFetching}>
          <Space style={{ marginBottom: 16 }}>
            {t('sms.inUse')}
            {saved ? (
              <Tag color={saved.provider === 'log' ? 'orange' : 'green'} data-testid="sms-provider-state">
                {t(`sms.${saved.provider}`)}
              </Tag>
            ) : null}
          </Space>
          {saved?.provider === 'log' ? (
            <Alert type="warning" showIcon style={{ marginBottom: 16 }} title={t('sms.logHelp')} description={saved.sandbox ? t('sms.sandboxHelp') : undefined} data-testid="sms-log-warning" />
          ) : null}
          <Form<Values> form={form} layout="vertical" style={{ maxWidth: 560 }} initialValues={{ provider: 'log' }} data-testid="sms-form">
            <Form.Item name="provider" label={t('sms.provider')}>
              <Radio.Group data-testid="sms-provider">
                {(['log', 'aliyun', 'tencent'] as const).map((p) => (
                  <Radio.Button key={p} value={p} data-testid={`sms-provider-${p}`}>
                    {t(`sms.${p}`)}
                  </Radio.Button>
                ))}
              </Radio.Group>
            </Form.Item>
            {provider === 'log' ? null : (
              <>
                <Form.Item name="base_url" label={t('sms.baseUrl')} extra={t('sms.baseUrlHelp', { url: sandboxUrl })} rules={[max(FIELD_MAX), { pattern: /^(\s*|\s*https?:\/\/.*)$/, message: 'http(s)://…' }]}>
                  <Input placeholder={provider === 'tencent' ? 'https://sms.tencentcloudapi.com' : 'https://dysmsapi.aliyuncs.com'} data-testid="sms-base-url" />
                </Form.Item>
                <Form.Item name="access_key_id" label={t('sms.accessKeyId')} rules={[required, max(FIELD_MAX)]}>
                  <Input data-testid="sms-key-id" />
                </Form.Item>
                <Form.Item
                  name="access_key_secret"
                  label={t('sms.accessKeySecret')}
                  extra={secretSaved ? t('sms.secretKeep', { key: saved?.access_key_secret }) : undefined}
                  rules={secretSaved ? [max(FIELD_MAX)] : [required, max(FIELD_MAX)]}
                >
                  <Input.Password autoComplete="new-password" data-testid="sms-secret" />
                </Form.Item>
                <Form.Item name="sign_name" label={t('sms.signName')} rules={[required, max(SIGN_NAME_MAX)]}>
                  <Input data-testid="sms-sign-name" />
                </Form.Item>
                {provider === 'tencent' ? (
                  <Form.Item name="app_id" label={t('sms.appId')} rules={[required, max(FIELD_MAX)]}>
                    <Input data-testid="sms-app-id" />
                  </Form.Item>
                ) : null}
                <Form.Item name="region" label={t('sms.region')} extra={t('sms.regionHelp')} rules={[max(FIELD_MAX)]}>
                  <Input data-testid="sms-region" />
                </Form.Item>
                {(['template_login', 'template_register', 'template_reset'] as const).map((k) => (
                  <Form.Item key={k} name={k} label={t(`sms.${k === 'template_login' ? 'templateLogin' : k === 'template_register' ? 'templateRegister' : 'templateReset'}`)} extra={k === 'template_login' ? t('sms.templateHelp') : undefined} rules={[required, max(FIELD_MAX)]}>
                    <Input data-testid={`sms-${k}`} />
                  </Form.Item>
                ))}
              </>
            )}
            <Button type="primary" loading={write.isPending} onClick={() => void save()} data-testid="sms-save">
              {t('sms.save')}
            </Button>
          </Form>
        </Spin>
      </Card>
      <Card size="small" style={{ marginTop: 16 }}>
        <Space wrap>
          {t('sms.testMobile')}
          <Input value={mobile} onChange={(e) => setMobile(e.target.value)} maxLength={11} style={{ width: 160 }} status={mobile && !MOBILE.test(mobile.trim()) ? 'error' : undefined} data-testid="sms-test-mobile" />
          <Button disabled={!MOBILE.test(mobile.trim())} loading={test.isPending} onClick={() => void sendTest()} data-testid="sms-test">
            {t('sms.test')}
          </Button>
        </Space>
        {mobile && !MOBILE.test(mobile.trim()) ? <div style={{ color: '#ff4d4f', marginTop: 8 }}>{t('sms.mobileInvalid')}</div> : null}
        {tested ? <Alert style={{ marginTop: 12 }} type={tested.ok ? 'success' : 'error'} showIcon title={tested.text} data-testid="sms-test-result" /> : null}
      </Card>
    </div>
  );
}
