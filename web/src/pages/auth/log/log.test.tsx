import { screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import OperationLogPage from '.';

const row = {
  id: 1,
  username: 'demo',
  method: 'POST',
  path: '/user.merchant_user_sub/add',
  action: 'user/merchant_user_sub/add',
  action_name: 'Staff accounts · Add',
  result: 'success',
  status: 200,
  message: '',
  ip: '127.0.0.1',
  created_at: 1_700_000_000_000,
};

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  mockFetch((url) => (url.pathname === '/api/index/log' ? ok({ rows: [row], total: 1 }) : ok({ rows: [], total: 0 })));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('operation log', { timeout: 60_000 }, () => {
  it('names the action in words, not by its permission string', async () => {
    renderPage(<OperationLogPage />, { route: '/log', path: '/log' });
    const cell = await screen.findByText('Staff accounts · Add');
    const tr = cell.closest('tr')!;
    expect(within(tr).queryByText('user/merchant_user_sub/add')).not.toBeInTheDocument();
  });
});
