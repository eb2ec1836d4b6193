import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccessProvider, type AccessState } from '@/access/AccessContext';
import { MemoryRouter } from 'react-router';
import type { MenuNode, UserRecord } from '@/api/auth/types';
import i18n from '@/i18n';
import { RouteGuard } from './RouteGuard';

const user = (role: string[], vip = false): UserRecord => ({
  id: 1,
  username: 'u',
  nickname: 'U',
  mobile: null,
  kind: 'merchant',
  merchant_id: 1,
  merchant_name: 'M',
  role,
  permissions: [],
  proxy_info: {},
  home_type: 2,
  ai_token: '',
  vip,
  avatar: '',
});

function guard(state: AccessState, meta: { admin?: boolean; vip?: boolean; lang?: 'zh-CN' | 'en'; menuPath?: string }, path?: string) {
  return render(
    <MemoryRouter>
      <AccessProvider value={state}>
        <RouteGuard meta={{ title: 'menu.log', ...meta }} path={path}>
          <div data-testid="page">page</div>
        </RouteGuard>
      </AccessProvider>
    </MemoryRouter>,
  );
}

const node = (id: number, path: string, children: MenuNode[] = []): MenuNode => ({
  id,
  path,
  name: '',
  icon: '',
  hidden: false,
  admin: false,
  vip: false,
  permission: [],
  children,
});
const staffMenu = [node(1, '/matrix', [node(2, '/send_management')]), node(3, '/usercenter')];
const staff = (): AccessState => ({
  user: { ...user(['staff']), kind: 'staff' },
  menu: staffMenu,
  permissions: ['task/merchant_forward_task/*'],
  roles: ['staff'],
});

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

describe('RouteGuard', () => {
  it('keeps Administrator routes closed to other roles', () => {
    guard({ user: user(['merchant']), menu: [], permissions: ['*/*/*'], roles: ['merchant'] }, { admin: true });
    expect(screen.queryByTestId('page')).not.toBeInTheDocument();
    expect(screen.getByText('This function is for Administrators only')).toBeInTheDocument();
  });

  it('opens Administrator routes to the operator', () => {
    guard({ user: user(['Administrator']), menu: [], permissions: ['*/*/*'], roles: ['Administrator'] }, { admin: true });
    expect(screen.getByTestId('page')).toBeInTheDocument();
    expect(document.title).toBe('Operation log - clipmatrix');
  });

  it('shows the membership message on VIP routes for non-members', () => {
    guard({ user: user(['merchant']), menu: [], permissions: [], roles: ['merchant'] }, { vip: true });
    expect(screen.getByText('This function is a membership function, please recharge VIP')).toBeInTheDocument();
    expect(screen.queryByTestId('page')).not.toBeInTheDocument();
  });

  it('shows a staff member the 403 page on a route outside their menus', () => {
    guard(staff(), {}, '/account_auth');
    expect(screen.queryByTestId('page')).not.toBeInTheDocument();
    expect(screen.getByTestId('route-forbidden')).toHaveTextContent('403');
    expect(screen.getByText(/Sorry, you have no access to this page/)).toBeInTheDocument();
  });

  it('opens a staff member the routes of their menus', () => {
    guard(staff(), {}, '/send_management');
    expect(screen.getByTestId('page')).toBeInTheDocument();
  });

  it('opens a staff member another route of a page their menu grants (menuPath)', () => {
    guard(staff(), { menuPath: '/send_management' }, '/send_alias');
    expect(screen.getByTestId('page')).toBeInTheDocument();
  });

  it('says 403 in Chinese in zh-CN', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      guard(staff(), {}, '/log');
      expect(screen.getByText(/抱歉，您没有访问此页面的权限/)).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('leaves merchant owners to the server: their menus hold every merchant route', () => {
    guard({ user: user(['merchant']), menu: staffMenu, permissions: ['*/*/*'], roles: ['merchant'] }, {}, '/account_auth');
    expect(screen.getByTestId('page')).toBeInTheDocument();
  });

  it('opens VIP routes to members', () => {
    guard({ user: user(['merchant', 'vip'], true), menu: [], permissions: [], roles: ['merchant', 'vip'] }, { vip: true });
    expect(screen.getByTestId('page')).toBeInTheDocument();
  });

  it('closes a route of the zh-cn table in English and opens it in Chinese', async () => {
    const owner: AccessState = { user: user(['merchant']), menu: [], permissions: ['*/*/*'], roles: ['merchant'] };
    const { unmount } = guard(owner, { lang: 'zh-CN' });
    expect(screen.getByTestId('route-lang')).toHaveTextContent('This page is in the 简体中文 console only');
    expect(screen.queryByTestId('page')).toBeNull();
    unmount();
    await i18n.changeLanguage('zh-CN');
    guard(owner, { lang: 'zh-CN' });
    expect(screen.getByTestId('page')).toBeInTheDocument();
    await i18n.changeLanguage('en');
  });
});
