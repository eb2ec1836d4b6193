import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { getToken, saveLogin } from '@/store/session';
import { merchantUser } from '@/test/users';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { Route, Routes } from 'react-router';
import UserCenterPage from '.';

const user = merchantUser;

let calls: Array<{ path: string; body: unknown }>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  calls = [];
  saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user });
  mockFetch((url, init) => {
    calls.push({ path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (url.pathname === '/api/index/profile') return ok(user);
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

function renderCenter() {
  return renderPage(
    <Routes>
      <Route path="/usercenter" element={<UserCenterPage />} />
      <Route path="/login" element={<div data-testid="login-page" />} />
    </Routes>,
    { route: '/usercenter', path: '*' },
  );
}

describe('user center: change password', () => {
  it('requires the current password, 8+ chars with letters and digits, and a matching confirmation', async () => {
    const u = userEvent.setup();
    renderCenter();
    await u.type(screen.getByTestId('password-new'), 'abcdefgh');
    await u.type(screen.getByTestId('password-confirm'), 'abcdefgX');
    await u.click(screen.getByTestId('password-submit'));
    expect(await screen.findByText('Please enter the current password')).toBeInTheDocument();
    expect(screen.getByText('At least 8 characters with both letters and digits')).toBeInTheDocument();
    expect(screen.getByText('The passwords entered twice are inconsistent')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/index/editPassword.html')).toBe(false);
  });

  it('sends the change and then signs the user out to /login', async () => {
    const u = userEvent.setup();
    renderCenter();
    await u.type(screen.getByTestId('password-old'), 'Demo12345');
    await u.type(screen.getByTestId('password-new'), 'Better12345');
    await u.type(screen.getByTestId('password-confirm'), 'Better12345');
    await u.click(screen.getByTestId('password-submit'));
    expect(await screen.findByTestId('login-page')).toBeInTheDocument();
    expect(calls.find((c) => c.path === '/api/index/editPassword.html')?.body).toEqual({
      old_password: 'Demo12345',
      password: 'Better12345',
      password_confirm: 'Better12345',
    });
    await waitFor(() => expect(getToken()).toBeNull());
  });
});
