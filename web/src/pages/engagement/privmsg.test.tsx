import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Conversation, PrivateMessage } from '@/api/engagement/types';
import { createSseParser, parseLeadEvents } from '@/api/materials/events';
import i18n from '@/i18n';
import { json, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { bodiesOf, inputOf, mockSeo as mockCalls, renderAt, type Call } from '../seo/testing';
import ChatReplyPage from './chatReply';
import DouWeiPage from './douWei';
import PrivateAuthPage from './privateAuth';
import PrivateMessagePage from './privateMessage';

const conversation: Conversation = {
  account_id: 7,
  account_name: 'Shop DY',
  conversation_id: 'conv_1',
  customer_id: 'u_fan_9',
  customer_name: 'Fan 9',
  last_text: 'Hello, we are here',
  last_direction: 'out',
  last_at: Date.UTC(2026, 0, 2),
  messages: 2,
};

const msg = (id: number, direction: 'in' | 'out', text: string, auto = false): PrivateMessage => ({
  id,
  direction,
  text,
  auto,
  customer_id: 'u_fan_9',
  customer_name: 'Fan 9',
  created_at: Date.UTC(2026, 0, 2),
});

let calls: Call[] = [];
let refuse = false;
let configured = false;
beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  refuse = false;
  configured = false;
  spyFeedback();
  calls = mockCalls((path, body) => {
    if (path === '/msg.merchant_private_msg/accounts')
      return [
        { id: 7, platform: 'dy', nickname: 'Shop DY', account_type: 'enterprise', scope: 'im.direct_message', expired: false, supported: true, reason: '' },
        { id: 8, platform: 'ks', nickname: 'Shop KS', account_type: 'personal', scope: '', expired: false, supported: false, reason: 'Kuaishou has no private-message API' },
      ];
    if (path === '/msg.merchant_private_msg/index') return { rows: [conversation], total: 1 };
    if (path === '/msg.merchant_private_msg/thread') return [msg(1, 'in', 'Are you there?'), msg(2, 'out', 'Hello, we are here', true)];
    if (path === '/msg.merchant_private_msg/quick_reply_list') return [{ id: 3, text: 'Open 10:00-22:00', sort: 0, created_at: 0, updated_at: 0 }];
    if (path === '/msg.merchant_private_msg/send')
      return refuse
        ? json({ code: 422, message: 'The platform refused the message: At most 5 messages until the customer writes again', data: { field: 'text' } }, 422)
        : [msg(1, 'in', 'Are you there?'), msg(2, 'out', 'Hello, we are here', true), msg(4, 'out', String(body.text || 'Open 10:00-22:00'))];
    if (path === '/msg.merchant_private_msg/quick_reply_save')
      return refuse ? json({ code: 422, message: 'text is required', data: { field: 'text' } }, 422) : [{ id: 3, text: String(body.text), sort: 0, created_at: 0, updated_at: 0 }];
    if (path === '/task.merchant_comment_keyword/index') return { rows: [], total: 0 };
    if (path === '/wechat.MerchantWechat/info')
      return configured
        ? { configured: true, enabled: true, app_id: 'wx_sbx_appid', secret_set: true, template_id: 'sbx_lead_template', reason: '', sandbox: true, sandbox_secret: 'sbx_wx_0f1e2d' }
        : { configured: false, enabled: false, app_id: '', secret_set: false, template_id: '', reason: 'No WeChat official account is configured: new leads are notified in the console only', sandbox: true, sandbox_secret: 'sbx_wx_0f1e2d' };
    if (path === '/wechat.MerchantWechat/save') return refuse ? json({ code: 422, message: 'app_id has an invalid value', data: { field: 'app_id' } }, 422) : {};
    if (path === '/msg.wxgzh/staff') return [{ id: 5, nickname: 'Amy', openid: '' }];
    if (path === '/msg.wxgzh/log')
      return [{ id: 1, lead_id: 9, user_id: 5, name: 'Fan 10', content: 'call 13912345678', platform: 'dy', source: 'message', wx_state: 'off', wx_reason: 'No WeChat official account is configured', created_at: 0 }];
    return undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('/private_message', { timeout: 60_000 }, () => {
  it('says which platforms have no message API, opens a thread and sends by hand and with a quick reply', async () => {
    renderAt(<PrivateMessagePage />, '/private_message');
    expect(screen.getByTestId('pm-no-api')).toHaveTextContent('Kuaishou, WeChat Channels and Xiaohongshu have no private-message API');
    fireEvent.click(await screen.findByTestId('pm-conversation-conv_1'));
    expect(await screen.findByText('Are you there?')).toBeInTheDocument();
    expect(screen.getByText('Auto-reply')).toBeInTheDocument();
    // the counter counts against the 500 characters the server allows (was "0 / 520")
    expect(document.querySelector('.ant-input-data-count')).toHaveTextContent('0 / 500');
    fireEvent.change(inputOf('pm-text'), { target: { value: 'Welcome' } });
    expect(document.querySelector('.ant-input-data-count')).toHaveTextContent('7 / 500');
    fireEvent.click(screen.getByTestId('pm-send'));
    await waitFor(() => expect(bodiesOf(calls, '/msg.merchant_private_msg/send')).toEqual([{ account_id: 7, conversation_id: 'conv_1', text: 'Welcome', quick_reply_id: 0 }]));
    expect(await screen.findByText('Welcome')).toBeInTheDocument();
  });

  it('shows the platform refusal under the text and sends nothing when the text is empty', async () => {
    refuse = true;
    renderAt(<PrivateMessagePage />, '/private_message');
    fireEvent.click(await screen.findByTestId('pm-conversation-conv_1'));
    await screen.findByText('Are you there?');
    fireEvent.click(screen.getByTestId('pm-send'));
    expect(await screen.findByText('Write a message first')).toBeInTheDocument();
    expect(bodiesOf(calls, '/msg.merchant_private_msg/send')).toEqual([]);
    fireEvent.change(inputOf('pm-text'), { target: { value: 'Sixth' } });
    fireEvent.click(screen.getByTestId('pm-send'));
    expect(await screen.findByText(/At most 5 messages until the customer writes again/)).toBeInTheDocument();
  });
});

describe('/private_auth', { timeout: 60_000 }, () => {
  it('lists which accounts may message and why the others may not', async () => {
    renderAt(<PrivateAuthPage />, '/private_auth');
    expect(await screen.findByTestId('pm-auth-7')).toHaveTextContent('Allowed');
    expect(screen.getByTestId('pm-auth-8')).toHaveTextContent('Not allowed');
    expect(screen.getByTestId('pm-auth-reason-8')).toHaveTextContent('Kuaishou has no private-message API');
  });
});

describe('/dou_wei', { timeout: 60_000 }, () => {
  it('says WeChat is not configured, saves the official account and marks a refused field', async () => {
    renderAt(<DouWeiPage />, '/dou_wei');
    // Nothing to type into until the saved configuration is in (it would overwrite what was typed).
    expect(screen.getByTestId('wx-config-loading')).toBeInTheDocument();
    expect(screen.queryByTestId('wx-app-id')).toBeNull();
    expect(await screen.findByTestId('wx-state')).toHaveTextContent('No WeChat official account is configured');
    expect(screen.queryByTestId('wx-config-loading')).toBeNull();
    // the sandbox's AppSecret is this install's, as the server tells it (no constant in the console)
    expect(screen.getByTestId('wx-sandbox')).toHaveTextContent('AppSecret sbx_wx_0f1e2d');
    expect(await screen.findByTestId('wx-log-state-1')).toHaveTextContent('Not sent');
    fireEvent.change(inputOf('wx-app-id'), { target: { value: 'wx id' } });
    fireEvent.change(inputOf('wx-app-secret'), { target: { value: 'sbx_wx_0f1e2d' } });
    fireEvent.change(inputOf('wx-template-id'), { target: { value: 'sbx_lead_template' } });
    refuse = true;
    fireEvent.click(screen.getByTestId('wx-save'));
    expect(await screen.findByText('app_id has an invalid value')).toBeInTheDocument();
    refuse = false;
    configured = true;
    fireEvent.change(inputOf('wx-app-id'), { target: { value: 'wx_sbx_appid' } });
    fireEvent.click(screen.getByTestId('wx-save'));
    await waitFor(() => expect(bodiesOf(calls, '/wechat.MerchantWechat/save').at(-1)).toMatchObject({ app_id: 'wx_sbx_appid', app_secret: 'sbx_wx_0f1e2d', template_id: 'sbx_lead_template' }));
    await waitFor(() => expect(screen.getByTestId('wx-state')).toHaveTextContent('WeChat notices are on'));
    fireEvent.change(inputOf('wx-openid-5'), { target: { value: 'o_staff_0001' } });
    fireEvent.click(screen.getByTestId('wx-bind-5'));
    await waitFor(() => expect(bodiesOf(calls, '/msg.wxgzh/bind')).toEqual([{ user_id: 5, openid: 'o_staff_0001' }]));
  });
});

describe('/chat_reply', { timeout: 60_000 }, () => {
  it('adds a quick reply', async () => {
    renderAt(<ChatReplyPage />, '/chat_reply');
    expect(await screen.findByTestId('quick-text-3')).toHaveTextContent('Open 10:00-22:00');
    fireEvent.click(screen.getByTestId('quick-add'));
    fireEvent.change(inputOf('quick-form-text'), { target: { value: 'See you soon' } });
    fireEvent.click(screen.getByRole('button', { name: /ok/i }));
    await waitFor(() => expect(bodiesOf(calls, '/msg.merchant_private_msg/quick_reply_save')).toEqual([{ id: 0, text: 'See you soon', sort: 0 }]));
  });
});

describe('lead events', () => {
  it('parses the `lead` events of the stream', () => {
    const got: string[] = [];
    const p = createSseParser((m) => {
      if (m.event === 'lead') got.push(...parseLeadEvents(m.data).map((n) => n.name));
    });
    p.push('event: lead\ndata: [{"id":3,"lead_id":9,"user_id":5,"name":"Fan 10","content":"c","platform":"dy","source":"message","wx_state":"off","wx_reason":"","created_at":0}]\n\n');
    p.push('event: lead\ndata: not json\n\n');
    expect(got).toEqual(['Fan 10']);
  });
});
