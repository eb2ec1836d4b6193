import { fireEvent, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@/api/auth/types';
import { QR_DEFAULTS } from '@/components/QrCodeImage';
import i18n from '@/i18n';
import { saveLogin } from '@/store/session';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { staffSignInUrl } from './ShareSignInModal';
import StaffAccountPage from '.';

const owner: UserRecord = {
  id: 2,
  username: 'demo',
  nickname: 'Demo',
  mobile: null,
  kind: 'merchant',
  merchant_id: 1,
  merchant_name: 'Demo Co',
  role: ['merchant'],
  permissions: ['*/*/*'],
  proxy_info: {},
  home_type: 2,
  ai_token: '',
  vip: false,
  avatar: '',
};
const staff = { id: 5, username: 'clerk_7', nickname: 'Clerk', mobile: null, status: 1, menu_ids: [], created_at: 1, last_login_at: null };

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user: owner });
  mockFetch((url) => (url.pathname === '/api/user.merchant_user_sub/list' ? ok({ rows: [staff], total: 1 }) : ok({})));
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

// whole pages render here: slow on a busy machine
describe('staff accounts: share sign-in', { timeout: 60_000 }, () => {
  it('the link is the sign-in page with the staff tab and the account (encoded)', () => {
    expect(staffSignInUrl('clerk_7', 'https://console.example')).toBe('https://console.example/login?type=3&username=clerk_7');
    expect(staffSignInUrl('a b&c', 'https://console.example')).toBe('https://console.example/login?type=3&username=a+b%26c');
    expect(new URL(staffSignInUrl('a b&c', 'https://x.test')).searchParams.get('username')).toBe('a b&c');
  });

  it('shows a QR code of that link with the SPEC defaults (size 100, logo 30, padding 5, level 2 = H)', async () => {
    renderPage(<StaffAccountPage />, { route: '/staffAccount', path: '/staffAccount' });
    fireEvent.click(await screen.findByTestId('staff-share-5'));
    const qr = await screen.findByTestId('staff-share-qr');
    expect(QR_DEFAULTS).toEqual({ size: 100, logoSize: 30, padding: 5, correctLevel: 2 });
    expect(qr).toHaveAttribute('data-level', 'H');
    expect(qr.style.padding).toBe('5px');
    expect(qr.querySelector('svg')).toHaveAttribute('width', '100');
    const logo = qr.querySelector('image')!;
    expect(logo.getAttribute('href') ?? logo.getAttribute('xlink:href')).toBe('/favicon.svg');
    const link = within(screen.getByTestId('staff-share-link')).getByRole('link');
    expect(link).toHaveAttribute('href', `${window.location.origin}/login?type=3&username=clerk_7`);
    expect(screen.getByText('Sign-in for Clerk')).toBeInTheDocument();
  });
});
