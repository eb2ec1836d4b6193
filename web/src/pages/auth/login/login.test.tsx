import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { getToken } from '@/store/session';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import LoginPage, { initialLoginType } from '.';

const loginIndex = {
  app_name: 'clipmatrix',
  version: '1.6.9',
  login_types: [1, 2, 3],
  agreements: { service_title: 'Service Agreement', privacy_title: 'Privacy Policy', service_url: '/s', privacy_url: '/p' },
  sandbox: true,
  sandbox_sms: false,
  remember_hours: 24,
  session_hours: 6,
};

const loginResult = {
  token: 'jwt-demo',
  expires_at: Date.now() + 3_600_000,
  remember: false,
  user: {
    id: 2,
    username: 'demo',
    nickname: 'Demo',
    mobile: null,
    kind: 'merchant',
    merchant_id: 1,
    merchant_name: 'Demo',
    role: ['merchant'],
    permissions: ['*/*/*'],
    proxy_info: {},
    home_type: 2,
    ai_token: '',
    vip: false,
    avatar: '',
  },
};

let calls: Array<{ path: string; body: unknown }>;
let indexReply: typeof loginIndex;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

beforeEach(() => {
  spyFeedback();
  calls = [];
  indexReply = loginIndex;
  mockFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path: url.pathname, body });
    if (url.pathname === '/api/login/index') return ok(indexReply);
    if (url.pathname === '/api/login/auth') return ok(loginResult);
    if (url.pathname === '/api/login/verifyJwtToken') return ok({ ...loginResult, token: 'jwt-proxy' });
    if (url.pathname === '/api/login/sms') return ok({ sent: true, resend_after_ms: 60_000 });
    return ok({});
  });
});

afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('login page', () => {
  it('shows the three login tabs, remember-me for 24 hours and the agreement', async () => {
    renderPage(<LoginPage />, { route: '/login', path: '/login' });
    expect(screen.getByTestId('login-tab-account')).toHaveTextContent('Enterprise account');
    expect(screen.getByTestId('login-tab-mobile')).toHaveTextContent('Mobile number');
    expect(screen.getByTestId('login-tab-staff')).toHaveTextContent('Staff account');
    expect(screen.getByText('Stay signed in for 24 hours')).toBeInTheDocument();
    expect(screen.getByTestId('login-agree')).not.toBeChecked();
    expect(await screen.findByText('《Service Agreement》')).toBeInTheDocument();
  });

  it('requires the agreement before signing in', async () => {
    const user = userEvent.setup();
    renderPage(<LoginPage />, { route: '/login', path: '/login' });
    await user.type(screen.getByTestId('login-username'), 'demo');
    await user.type(screen.getByTestId('login-password'), 'Demo12345');
    await user.click(screen.getByTestId('login-submit'));
    expect(await screen.findByText('Please read and agree to the service and privacy agreements')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/login/auth')).toBe(false);

    await user.click(screen.getByTestId('login-agree'));
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/login/auth')).toBe(true));
    expect(calls.find((c) => c.path === '/api/login/auth')?.body).toEqual({
      login_type: 1,
      username: 'demo',
      password: 'Demo12345',
      agree: true,
      remember: false,
    });
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(getToken()).toBe('jwt-demo');
  });

  it('staff tab signs in with login_type 3 and remember-me', async () => {
    const user = userEvent.setup();
    renderPage(<LoginPage />, { route: '/login', path: '/login' });
    await user.click(screen.getByTestId('login-tab-staff'));
    await user.type(screen.getByTestId('login-username'), 'clerk');
    await user.type(screen.getByTestId('login-password'), 'Clerk12345');
    await user.click(screen.getByTestId('login-remember'));
    await user.click(screen.getByTestId('login-agree'));
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/login/auth')?.body).toMatchObject({ login_type: 3, username: 'clerk', remember: true }));
  });

  it('mobile tab sends an SMS code and counts down 60 s', async () => {
    const user = userEvent.setup();
    renderPage(<LoginPage />, { route: '/login', path: '/login' });
    await user.click(screen.getByTestId('login-tab-mobile'));
    expect(screen.queryByTestId('login-username')).not.toBeInTheDocument();
    fireEvent.change(screen.getByTestId('login-mobile'), { target: { value: '13800000000' } });
    await user.click(screen.getByTestId('login-send-code'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/login/sms')?.body).toEqual({ mobile: '13800000000', scene: 'login' }));
    await waitFor(() => expect(screen.getByTestId('login-send-code')).toBeDisabled());
    expect(screen.getByTestId('login-send-code')).toHaveTextContent(/Resend in (60|59)s/);
  });

  it('links the sandbox SMS outbox only for a browser the server says may read it', async () => {
    const user = userEvent.setup();
    // The sandbox is on, but this browser holds no sandbox token: the outbox would answer 401.
    const { unmount } = renderPage(<LoginPage />, { route: '/login', path: '/login' });
    await user.click(screen.getByTestId('login-tab-mobile'));
    expect(await screen.findByText('《Service Agreement》')).toBeInTheDocument();
    expect(screen.queryByTestId('login-sandbox-sms')).not.toBeInTheDocument();
    unmount();
    indexReply = { ...loginIndex, sandbox_sms: true };
    renderPage(<LoginPage />, { route: '/login', path: '/login' });
    await user.click(screen.getByTestId('login-tab-mobile'));
    expect(await screen.findByTestId('login-sandbox-sms')).toHaveAttribute('href', '/sandbox/sms');
  });

  it('a shared staff link (?type=3&username=) opens the staff tab with the account filled in', async () => {
    const user = userEvent.setup();
    renderPage(<LoginPage />, { route: '/login?type=3&username=clerk_7', path: '/login' });
    expect(screen.getByTestId('login-tab-staff').closest('[role="tab"]')).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByTestId('login-username')).toHaveValue('clerk_7');
    expect(screen.getByTestId('login-username')).toHaveAttribute('placeholder', 'Staff account');
    fireEvent.change(screen.getByTestId('login-password'), { target: { value: 'Clerk12345' } });
    await user.click(screen.getByTestId('login-agree'));
    await user.click(screen.getByTestId('login-submit'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/login/auth')?.body).toMatchObject({ login_type: 3, username: 'clerk_7', password: 'Clerk12345' }));
  });

  it('an unknown ?type= falls back to the account tab', () => {
    expect([initialLoginType('2'), initialLoginType('9'), initialLoginType(null), initialLoginType('x')]).toEqual([2, 1, 1, 1]);
  });

  it('signs in with ?proxyToken= automatically', async () => {
    renderPage(<LoginPage />, { route: '/login?proxyToken=ptok', path: '/login' });
    expect(await screen.findByTestId('home-page')).toBeInTheDocument();
    expect(calls.filter((c) => c.path === '/api/login/verifyJwtToken')).toEqual([
      { path: '/api/login/verifyJwtToken', body: { proxyToken: 'ptok' } },
    ]);
    expect(getToken()).toBe('jwt-proxy');
  });
});
