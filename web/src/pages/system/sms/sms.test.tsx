import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import SmsGatewayPage from '.';

type Gateway = Record<string, unknown>;
const LOG: Gateway = { provider: 'log', base_url: '', access_key_id: '', access_key_secret: '', sign_name: '', app_id: '', region: '', template_login: '', template_register: '', template_reset: '', sandbox: true };

let saved: Gateway;
let calls: Array<{ path: string; body: Record<string, unknown> }>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  saved = LOG;
  calls = [];
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ path, body });
    if (path === '/system/sms/index') return ok(saved);
    if (path === '/system/sms/save') {
      saved = { ...body, access_key_secret: 'sbx***ab', sandbox: true };
      return ok(saved);
    }
    if (path === '/system/sms/test') {
      if (body.mobile === '13700137000')
        return json({ code: 422, message: 'The SMS could not be sent: The SMS template is not approved (isv.SMS_TEMPLATE_ILLEGAL)', data: { field: 'provider' } }, 422);
      return ok({ message_id: 'sms1', logged: false });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setFeedback(null);
});

const input = (id: string) => {
  const el = screen.getByTestId(id);
  return (el.tagName === 'INPUT' ? el : el.querySelector('input')) as HTMLInputElement;
};

describe('/system/sms', { timeout: 60_000 }, () => {
  it('warns that codes go to the log, checks the form before sending, saves Aliyun, tests it', async () => {
    renderPage(<SmsGatewayPage />, { route: '/system/sms' });
    expect(await screen.findByTestId('sms-log-warning')).toHaveTextContent('reach no phone');
    expect(screen.getByTestId('sms-provider-state')).toHaveTextContent('Server log');
    fireEvent.click(screen.getByTestId('sms-provider-aliyun'));
    fireEvent.change(await waitFor(() => input('sms-key-id')), { target: { value: 'sbx_sms_key' } });
    fireEvent.change(input('sms-sign-name'), { target: { value: '一个远超十二个字符的短信签名名称' } });
    fireEvent.click(screen.getByTestId('sms-save'));
    expect(await screen.findByText('At most 12 characters')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/system/sms/save')).toEqual([]);

    fireEvent.change(input('sms-sign-name'), { target: { value: ' 剪辑矩阵 ' } });
    fireEvent.change(input('sms-secret'), { target: { value: 'secret' } });
    fireEvent.change(input('sms-template_login'), { target: { value: 'SMS_100001' } });
    fireEvent.change(input('sms-template_register'), { target: { value: 'SMS_100002' } });
    fireEvent.change(input('sms-template_reset'), { target: { value: 'SMS_100003' } });
    fireEvent.click(screen.getByTestId('sms-save'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/system/sms/save')).toHaveLength(1));
    const body = calls.find((c) => c.path === '/system/sms/save')!.body;
    expect(body).toMatchObject({ provider: 'aliyun', access_key_id: 'sbx_sms_key', access_key_secret: 'secret', sign_name: '剪辑矩阵', template_login: 'SMS_100001' });
    await waitFor(() => expect(screen.getByTestId('sms-provider-state')).toHaveTextContent('Aliyun SMS'));
    expect(input('sms-secret')).toHaveValue('');
    expect(screen.getByText('Saved (sbx***ab); leave empty to keep it')).toBeInTheDocument();

    // A test send: the gateway's refusal in its own words, then a success.
    fireEvent.change(input('sms-test-mobile'), { target: { value: '123' } });
    expect(screen.getByTestId('sms-test')).toBeDisabled();
    fireEvent.change(input('sms-test-mobile'), { target: { value: '13700137000' } });
    fireEvent.click(screen.getByTestId('sms-test'));
    expect(await screen.findByTestId('sms-test-result')).toHaveTextContent('isv.SMS_TEMPLATE_ILLEGAL');
    fireEvent.change(input('sms-test-mobile'), { target: { value: '13800138000' } });
    fireEvent.click(screen.getByTestId('sms-test'));
    await waitFor(() => expect(screen.getByTestId('sms-test-result')).toHaveTextContent('message id sms1'));
  });

  it('speaks Chinese by default strings too', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<SmsGatewayPage />, { route: '/system/sms' });
    expect(await screen.findByTestId('sms-log-warning')).toHaveTextContent('不会发到手机');
    await i18n.changeLanguage('en');
  });
});
