import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import type { ApiToken } from '@/api/auth/types';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import ApiTokens from './ApiTokens';

const DAY = 86_400_000;
const now = Date.now();
const rows: ApiToken[] = [
  {
    id: 2,
    name: 'nightly',
    hint: 'cmx_Ab12',
    scopes: ['read', 'publish'],
    expires_at: now + 30 * DAY,
    last_used_at: null,
    revoked_at: null,
    created_at: now - DAY,
    active: true,
  },
  {
    id: 1,
    name: 'old',
    hint: 'cmx_Zz99',
    scopes: ['reports'],
    expires_at: now - DAY,
    last_used_at: now - 2 * DAY,
    revoked_at: null,
    created_at: now - 10 * DAY,
    active: false,
  },
];

let calls: Array<{ path: string; body: unknown }>;
let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  calls = [];
  mockFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path: url.pathname, body });
    if (url.pathname === '/api/index/apiTokens') return ok({ rows, total: rows.length });
    if (url.pathname === '/api/index/addApiToken') {
      return ok({ ...rows[0], id: 3, name: body.name, scopes: body.scopes, token: 'cmx_SecretOnce1234567890' });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('user center: API tokens', () => {
  it('lists tokens with their scopes, last use and state; only an active one can be revoked', async () => {
    const u = userEvent.setup();
    renderPage(<ApiTokens />, { route: '/usercenter' });
    expect(await screen.findByText('nightly')).toBeInTheDocument();
    const scopes = screen.getByTestId('token-scopes-2');
    expect(within(scopes).getByText('Read')).toBeInTheDocument();
    expect(within(scopes).getByText('Publishing')).toBeInTheDocument();
    expect(screen.getByText('Never')).toBeInTheDocument();
    expect(screen.getByText('Expired')).toBeInTheDocument();
    expect(screen.queryByTestId('token-revoke-1')).toBeNull();
    await u.click(screen.getByTestId('token-revoke-2'));
    await u.click(await screen.findByTestId('token-revoke-ok-2'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/index/revokeApiToken')?.body).toEqual({ id: 2 }));
    expect(feedback.success).toHaveBeenCalledWith('Token revoked');
  });

  it('creates a token and shows it once with a copy button', async () => {
    const u = userEvent.setup();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderPage(<ApiTokens />, { route: '/usercenter' });
    await u.click(await screen.findByTestId('token-create'));
    await u.type(await screen.findByTestId('token-name'), '  agent  ');
    await u.click(screen.getByTestId('token-scope-clip'));
    await u.click(screen.getByTestId('token-form-ok'));
    expect(await screen.findByTestId('token-value')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/index/addApiToken')?.body).toEqual({
      name: 'agent',
      scopes: ['read', 'clip'],
      expires_in_days: 30,
    });
    expect(screen.getByTestId('token-value')).toHaveValue('cmx_SecretOnce1234567890');
    expect(screen.getByText(/shown only this once/)).toBeInTheDocument();
    await u.click(screen.getByTestId('token-copy'));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('cmx_SecretOnce1234567890'));
    await u.click(screen.getByTestId('token-created-done'));
    await waitFor(() => expect(screen.queryByTestId('token-value')).toBeNull());
  });

  it('needs a name and a scope before it sends anything', async () => {
    const u = userEvent.setup();
    renderPage(<ApiTokens />, { route: '/usercenter' });
    await u.click(await screen.findByTestId('token-create'));
    await u.click(await screen.findByTestId('token-scope-read'));
    await u.click(screen.getByTestId('token-form-ok'));
    expect(await screen.findByText('Choose at least one scope')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/index/addApiToken')).toBe(false);
  });
});
