import { render, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import { AccessProvider, type AccessState } from '@/access/AccessContext';
import type { UserRecord } from '@/api/auth/types';
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
  proxy_info: null,
  home_type: 2,
  ai_token: null,
  vip,
  avatar: null,
});

function guard(state: AccessState, meta: { admin?: boolean; vip?: boolean }) {
  return render(
    <AccessProvider value={state}>
      <RouteGuard meta={{ title: 'menu.log', ...meta }}>
        <div data-testid="page">page</div>
      </RouteGuard>
    </AccessProvider>,
  );
}

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

  it('opens VIP routes to members', () => {
    guard({ user: user(['merchant', 'vip'], true), menu: [], permissions: [], roles: ['merchant', 'vip'] }, { vip: true });
    expect(screen.getByTestId('page')).toBeInTheDocument();
  });
});
