import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/api/matrix/types';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import AuthMaturePage from '.';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

// The server offers the buttons (`AuthState::actions`): renew only while the authorization lives.
const account = (id: number, status: Account['status']): Account =>
  ({
    id,
    platform: 'dy',
    nickname: `acc-${id}`,
    avatar: '',
    status,
    expires_at: Date.UTC(2030, 0, 1),
    group_name: '',
    remarks: '',
    revoked_reason: '',
    actions: [
      { action: 'renew', enabled: status !== 'expired' },
      { action: 'reauthorize', enabled: true },
    ],
  }) as Account;

let posts: { path: string; body: Record<string, unknown> }[];

beforeEach(() => {
  spyFeedback();
  posts = [];
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    posts.push({ path, body });
    if (path === '/task.merchant_group_user/expire_user') return ok({ rows: [account(1, 'expiring'), account(2, 'expired')], total: 2 });
    if (path.endsWith('/renew')) return ok(account(1, 'active'));
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setFeedback(null);
});

describe('/auth_mature', { timeout: 30_000 }, () => {
  it('offers renewal where the server allows it, and authorizing again everywhere', async () => {
    renderPage(<AuthMaturePage />, { route: '/auth_mature' });
    expect(await screen.findByTestId('mature-renew-1')).toBeInTheDocument();
    expect(screen.queryByTestId('mature-renew-2')).toBeNull();
    expect(screen.getByTestId('mature-reauth-1')).toBeInTheDocument();
    expect(screen.getByTestId('mature-reauth-2')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('mature-renew-1'));
    await waitFor(() => expect(posts).toContainEqual({ path: '/task.merchant_group_user/renew', body: { id: 1 } }));
  });
});
