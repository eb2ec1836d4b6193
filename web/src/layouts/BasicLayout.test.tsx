import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MenuNode } from '@/api/auth/types';
import i18n from '@/i18n';
import { clearSession, saveLogin } from '@/store/session';
import { merchantUser, operatorUser } from '@/test/users';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import BasicLayout from './BasicLayout';

const user = merchantUser;
const node = (id: number, path: string, name: string, icon: string, children?: MenuNode[]): MenuNode => ({ id, path, name, icon, permission: [], hidden: false, admin: false, vip: false, children: children ?? [] });
const menu = [
  node(1, '/dashboard', 'menu.dashboard', 'DashboardOutlined'),
  node(3, '/matrix', 'menu.matrix', 'ClusterOutlined', [
    node(4, '/send_management', 'menu.sendManagement', 'SendOutlined'),
    node(5, '/account_auth', 'menu.accountAuth', 'SafetyCertificateOutlined'),
    node(6, '/auth_mature', 'menu.authMature', 'FieldTimeOutlined'),
  ]),
];

beforeEach(() => {
  spyFeedback();
  saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user });
  mockFetch((url) => (url.pathname === '/api/ajax/initAdmin' ? ok({ menu, permissions: ['*/*/*'], role: ['merchant'], user }) : ok({})));
});
afterEach(async () => {
  clearSession();
  vi.unstubAllGlobals();
  setFeedback(null);
  await i18n.changeLanguage('zh-CN');
});

const siderWidth = () => parseFloat((screen.getByTestId('side-sider') as HTMLElement).style.width);

describe('side menu width (English labels were cut: "Account authori…")', () => {
  it('is 220 px for the Chinese labels', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<BasicLayout />, { route: '/account_auth', path: '/account_auth' });
    expect(await screen.findByTestId('menu-account_auth')).toBeInTheDocument();
    expect(siderWidth()).toBe(220);
  });

  it('widens so the longest English label fits at its indent, and shows each label in full as its title', async () => {
    await i18n.changeLanguage('en');
    renderPage(<BasicLayout />, { route: '/account_auth', path: '/account_auth' });
    const label = await screen.findByTestId('menu-account_auth');
    expect(label).toHaveTextContent('Account authorization');
    expect(label).toHaveAttribute('title', 'Account authorization');
    // "Account authorization" at 14 px is at least 140 px wide; a second-level item starts 72 px in
    // (two indents and the icon) and keeps 16 px at the right and 8 px of margin
    expect(siderWidth()).toBeGreaterThanOrEqual(140 + 72 + 16 + 8);
    expect(siderWidth()).toBeLessThanOrEqual(300);
  });
});

describe('demo mode (the sandbox on where others reach the server)', () => {
  it('shows the banner in both languages when the server says so, and none otherwise', async () => {
    renderPage(<BasicLayout />, { route: '/account_auth', path: '/account_auth' });
    expect(await screen.findByTestId('menu-account_auth')).toBeInTheDocument();
    expect(screen.queryByTestId('demo-banner')).toBeNull();
  });

  it.each([
    ['zh-CN', '演示模式'],
    ['en', 'Demo mode'],
  ])('%s', async (lng, text) => {
    await i18n.changeLanguage(lng);
    mockFetch((url) =>
      url.pathname === '/api/ajax/initAdmin'
        ? ok({ menu, permissions: ['*/*/*'], role: ['merchant'], user })
        : url.pathname === '/api/index/platformInit'
          ? ok({ sandbox: true, demo: true })
          : ok({}),
    );
    renderPage(<BasicLayout />, { route: '/account_auth', path: '/account_auth' });
    expect(await screen.findByTestId('demo-banner')).toHaveTextContent(text);
  });
});

describe('a platform paused by its failed page check (the operator is told on every page)', () => {
  const paused = [{ platform: 'xhs', name: '小红书', step: 'upload', reason: '上传失败：no element matches input.upload-input', at: 1 }];
  const serve = (role: string[], who: typeof user, list: unknown[]) =>
    mockFetch((url) => (url.pathname === '/api/ajax/initAdmin' ? ok({ menu, permissions: ['*/*/*'], role, user: who, paused_platforms: list }) : ok({})));

  it('shows the operator which platform waits and why, and takes them to Platform apps', async () => {
    saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user: operatorUser });
    serve(['Administrator'], operatorUser, paused);
    renderPage(<BasicLayout />, { route: '/dashboard', path: '/dashboard', others: { '/system/app': <div data-testid="system-app-page" /> } });
    const banner = await screen.findByTestId('paused-banner');
    expect(banner).toHaveTextContent('页面检查未通过：小红书的待发作品已暂停（上传失败：no element matches input.upload-input）');
    await userEvent.click(screen.getByTestId('paused-banner-go'));
    expect(await screen.findByTestId('system-app-page')).toBeInTheDocument();
  });

  it('in English', async () => {
    await i18n.changeLanguage('en');
    saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user: operatorUser });
    serve(['Administrator'], operatorUser, [{ ...paused[0], name: 'Xiaohongshu', reason: 'upload failed' }, { ...paused[0], platform: 'sph', name: 'WeChat Channels' }]);
    renderPage(<BasicLayout />, { route: '/dashboard', path: '*' });
    expect(await screen.findByTestId('paused-banner')).toHaveTextContent('Page check failed: posts to Xiaohongshu, WeChat Channels are paused (upload failed)');
  });

  it('says nothing when no platform is paused, or to a merchant', async () => {
    serve(['merchant'], user, []);
    renderPage(<BasicLayout />, { route: '/account_auth', path: '/account_auth' });
    expect(await screen.findByTestId('menu-account_auth')).toBeInTheDocument();
    expect(screen.queryByTestId('paused-banner')).toBeNull();
  });
});
