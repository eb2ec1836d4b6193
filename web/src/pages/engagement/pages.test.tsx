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
beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  refuse = false;
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
