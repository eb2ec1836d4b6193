import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { EngagementComment, Lead, LeadState } from '@/api/engagement/types';
import i18n from '@/i18n';
import { json, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { bodiesOf, inputOf, mockSeo as mockCalls, renderAt, type Call } from '../seo/testing';
import CommentManagementPage from './comments';
import LeadsPage from './leads';
import CommentReplyPage from './autoReply';
import DouWeiPage from './douWei';

const comment = (id: number, over: Partial<EngagementComment> = {}): EngagementComment => ({
  id,
  account_id: 7,
  account_name: 'Shop DY',
  platform: 'dy',
  item_id: 'i1',
  item_title: 'Spring menu',
  comment_id: `c${id}`,
  user_id: `u${id}`,
  content: `How much is set ${id}?`,
  created_at: Date.UTC(2026, 0, 2),
  intent: 'purchase',
  intent_name: 'purchase intent',
  status: 'visible',
  replied: false,
  reply_text: '',
  replied_at: 0,
  auto_state: 'none',
  ...over,
});

const lead = (id: number, over: Partial<Lead> = {}): Lead => ({
  id,
  name: `u${id}`,
  content: 'call me 13812345678',
  source: 'comment',
  source_id: 1,
  platform: 'dy',
  account_id: 7,
  account_name: 'Shop DY',
  item_id: 'i1',
  phone: '13812345678',
  wechat: '',
  intent: 'contact',
  intent_name: 'contact details',
  state: 'new',
  state_name: 'new',
  next_states: ['contacted', 'converted', 'invalid'],
  assignee_id: 3,
  assignee_name: 'Amy',
  notes: [],
  created_at: 0,
  updated_at: 0,
  ...over,
});

let calls: Call[] = [];
let refuse = false;
let wxBound = false;
let wxPolls = 0;
beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  refuse = false;
  wxBound = false;
  wxPolls = 0;
  spyFeedback();
  calls = mockCalls((path, body) => {
    if (path === '/task.merchant_comment/accounts')
      return [
        { id: 7, platform: 'dy', nickname: 'Shop DY', supported: true, reason: '' },
        { id: 8, platform: 'ks', nickname: 'Shop KS', supported: false, reason: 'Kuaishou has no comment API' },
      ];
    if (path === '/task.merchant_comment/index') return { rows: [comment(1), comment(2, { replied: true, reply_text: 'Sent you the price' })], total: 2 };
    if (path === '/task.merchant_comment/reply')
      return refuse ? json({ code: 422, message: 'Comment line 1 contains contact details or a link', data: { field: 'text' } }, 422) : comment(1, { replied: true, reply_text: String(body.text) });
    if (path === '/task.merchant_comment/suggest_replies')
      return { rows: ['Thanks! Price is in your DMs', 'Come and try it'], source: { kind: 'llm', model: 'sbx-chat', fallback_reason: '' } };
    if (path === '/wechat.MerchantWechat/info')
      return { configured: true, enabled: true, app_id: 'wx_sbx_appid', secret_set: true, template_id: 't', reason: '', sandbox: true, sandbox_secret: 's', server_token_set: true, callback_url: 'http://x/api/msg.wxgzh/callback?merchant=1', sandbox_server_token: 'tok' };
    if (path === '/msg.wxgzh/staff') return [{ id: 3, nickname: 'Amy', openid: wxBound ? 'o_amy_0001' : '' }];
    if (path === '/msg.wxgzh/log') return [];
    if (path === '/msg.wxgzh/bind_qr') return { scene: 'bind_abc', url: 'http://x/sandbox/wechat/q/t1', user_id: 3, expires_at: 0, state: 'pending', openid: '' };
    if (path === '/msg.wxgzh/bind_state') {
      wxPolls += 1;
      if (wxPolls >= 2) wxBound = true;
      return { scene: 'bind_abc', url: 'http://x/sandbox/wechat/q/t1', user_id: 3, expires_at: 0, state: wxBound ? 'bound' : 'pending', openid: wxBound ? 'o_amy_0001' : '' };
    }
    if (path === '/index/copyCheck')
      return String(body.text).includes('最好')
        ? { findings: [{ start: 2, end: 4, term: '最好', rule_id: 'ad.absolute.superlative', kind: 'absolute', severity: 'block', source: 'Advertising Law, Art. 9(3)', explanation: 'No superlatives', suggestion: '很好' }], blocked: true }
        : { findings: [], blocked: false };
    if (path === '/task.merchant_comment_keyword/index') return { rows: [], total: 0 };
    if (path === '/task.merchant_comment_keyword/add')
      return refuse ? json({ code: 422, message: 'keywords is required', data: { field: 'keywords' } }, 422) : { id: 1 };
    if (path === '/msg.merchant_clue/index') return { rows: [lead(1), lead(2, { state: 'converted', next_states: [], assignee_id: 0, assignee_name: '' })], total: 2 };
    if (path === '/msg.merchant_clue/state') return lead(1, { state: body.state as LeadState, next_states: ['converted', 'invalid'] });
    return undefined;
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('/comment_management', { timeout: 60_000 }, () => {
  it('lists comments, names the platforms without a comment API and replies by hand', async () => {
    renderAt(<CommentManagementPage />, '/comment_management');
    expect(await screen.findByTestId('comment-text-1')).toHaveTextContent('How much is set 1?');
    expect(screen.getByTestId('comment-reply-2')).toHaveTextContent('Sent you the price');
    expect(await screen.findByTestId('comment-unsupported')).toHaveTextContent('Kuaishou has no comment API');
    fireEvent.click(screen.getByTestId('comment-reply-btn-1'));
    fireEvent.change(inputOf('comment-reply-text'), { target: { value: 'Price sent' } });
    fireEvent.click(screen.getByRole('button', { name: /ok/i }));
    await waitFor(() => expect(bodiesOf(calls, '/task.merchant_comment/reply')).toEqual([{ id: 1, text: 'Price sent' }]));
  });
});

describe('/comment_management reply suggestions', { timeout: 60_000 }, () => {
  it('offers the writer\'s suggestions, says who wrote them, and a click fills the reply', async () => {
    renderAt(<CommentManagementPage />, '/comment_management');
    fireEvent.click(await screen.findByTestId('comment-reply-btn-1'));
    fireEvent.click(await screen.findByTestId('reply-suggest'));
    expect(await screen.findByTestId('reply-suggest-source')).toHaveAttribute('data-kind', 'llm');
    fireEvent.click(screen.getByTestId('reply-suggestion-1'));
    expect(inputOf('comment-reply-text')).toHaveValue('Come and try it');
    expect(bodiesOf(calls, '/task.merchant_comment/suggest_replies')).toEqual([{ id: 1 }]);
    expect(bodiesOf(calls, '/task.merchant_comment/reply')).toEqual([]);
  });
});

describe('/dou_wei binding by QR code', { timeout: 60_000 }, () => {
  it('shows the account\'s QR code, waits for the scan and shows the staff member bound', async () => {
    renderAt(<DouWeiPage />, '/dou_wei');
    await waitFor(() => expect(screen.getByTestId('wx-callback-url')).toHaveTextContent('/api/msg.wxgzh/callback?merchant=1'));
    fireEvent.click(await screen.findByTestId('wx-scan-bind-3'));
    expect(await screen.findByTestId('wx-bind-waiting')).toHaveTextContent('Amy');
    expect(screen.getByTestId('wx-bind-link')).toHaveAttribute('href', 'http://x/sandbox/wechat/q/t1');
    expect(await screen.findByTestId('wx-bind-done', {}, { timeout: 8000 })).toHaveTextContent('o_amy_0001');
    expect(bodiesOf(calls, '/msg.wxgzh/bind_qr')).toEqual([{ user_id: 3 }]);
    await waitFor(() => expect(screen.getByTestId('wx-bound-3')).toHaveTextContent('Bound'));
  });
});

describe('/comment_reply', { timeout: 60_000 }, () => {
  it('refuses scripts with contact details before sending them (SPEC §5)', async () => {
    renderAt(<CommentReplyPage />, '/comment_reply');
    fireEvent.click(await screen.findByTestId('rule-add'));
    fireEvent.change(inputOf('rule-form-name'), { target: { value: 'Price' } });
    fireEvent.change(inputOf('rule-form-replies'), { target: { value: 'WeChat abc123 for price' } });
    fireEvent.click(screen.getByRole('button', { name: /ok/i }));
    await waitFor(() => expect(document.body.textContent).toContain('contains contact details or a link'));
    expect(bodiesOf(calls, '/task.merchant_comment_keyword/add')).toEqual([]);
  });
});

describe('/comment_reply copy precheck', { timeout: 60_000 }, () => {
  it('flags a claim in a reply script as it is typed and applies the rewrite', async () => {
    renderAt(<CommentReplyPage />, '/comment_reply');
    fireEvent.click(await screen.findByTestId('rule-add'));
    fireEvent.change(inputOf('rule-form-replies'), { target: { value: '我们最好吃' } });
    expect(await screen.findByTestId('rule-replies-copy-check-finding', {}, { timeout: 5000 })).toHaveAttribute('data-severity', 'block');
    fireEvent.click(screen.getByTestId('rule-replies-copy-check-apply'));
    await waitFor(() => expect(inputOf('rule-form-replies')).toHaveValue('我们很好吃'));
  });
});

describe('/clue_management', { timeout: 60_000 }, () => {
  it('lists leads with their state and assignee and moves a lead on', async () => {
    renderAt(<LeadsPage />, '/clue_management');
    expect(await screen.findByTestId('lead-state-1')).toHaveTextContent('New');
    expect(screen.getByTestId('lead-assignee-2')).toHaveTextContent('Unassigned');
    expect(screen.queryByTestId('lead-move-2')).toBeNull();
    // the moves offered are the ones the server lists for the lead
    fireEvent.mouseEnter(screen.getByTestId('lead-move-1'));
    expect(await screen.findByText('Mark Converted')).toBeInTheDocument();
    expect(screen.getByText('Mark Invalid')).toBeInTheDocument();
    fireEvent.click(await screen.findByText('Mark Contacted'));
    await waitFor(() => expect(bodiesOf(calls, '/msg.merchant_clue/state')).toEqual([{ id: 1, state: 'contacted' }]));
  });
});
