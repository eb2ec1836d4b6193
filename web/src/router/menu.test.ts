import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@/api/auth/types';
import { buildMenu, homePath, menuPaths } from './menu';
import { appRoutes, routeByPath } from './routes';

const node = (id: number, path: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  id,
  path,
  name: `menu.${path.slice(1)}`,
  icon: '',
  permission: [],
  hidden: false,
  admin: false,
  vip: false,
  children: [],
  ...extra,
});

describe('menu from /ajax/initAdmin', () => {
  const tree = [
    node(1, '/dashboard'),
    node(2, '/log'),
    node(3, '/staffAccount', { hidden: true }),
    node(4, '/comment_management'), // no page yet: not shown
    node(5, '/system', { admin: true, children: [node(6, '/system/merchant', { admin: true }), node(7, '/system/tasks', { admin: true })] }),
  ];

  it('keeps only routes declared locally and not hidden', () => {
    const menu = buildMenu(tree, { isAdmin: false });
    expect(menu.map((m) => m.path)).toEqual(['/dashboard', '/log']);
  });

  it('shows Administrator groups to the operator only', () => {
    const menu = buildMenu(tree, { isAdmin: true });
    expect(menu.at(-1)?.children?.map((m) => m.path)).toEqual(['/system/merchant', '/system/tasks']);
  });

  it('goes home to the dashboard, else to the first menu the user has', () => {
    expect(homePath(tree, { isAdmin: false })).toBe('/dashboard');
    expect(homePath([node(2, '/log')], { isAdmin: false })).toBe('/log');
    expect(homePath([], { isAdmin: false })).toBe('/usercenter');
  });

  it('hangs the material libraries under their parent menu', () => {
    const material = node(8, '/material', {
      children: ['/video', '/speak', '/music', '/image', '/font'].map((p, i) => node(10 + i, p)),
    });
    const menu = buildMenu([node(1, '/dashboard'), material], { isAdmin: false });
    expect(menu[1].key).toBe('group:8');
    expect(menu[1].children?.map((m) => m.path)).toEqual(['/video', '/speak', '/music', '/image', '/font']);
  });

  it('lists hidden paths as reachable', () => {
    expect(menuPaths(tree)).toContain('/staffAccount');
  });

  it('declares every route once', () => {
    const paths = appRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining(['/login', '/dashboard', '/usercenter', '/staffAccount', '/log', '/useRecord', '/system/tasks', '/video', '/speak', '/music', '/image', '/font', '/system/music']),
    );
    // the areas of docs/api-activities.md, each behind the permission of its calls
    expect(routeByPath.get('/Events')?.meta).toMatchObject({ title: 'menu.events', icon: 'GiftOutlined', permission: 'task/merchant_forward_task_activities/*' });
    expect(routeByPath.get('/nfc')?.meta).toMatchObject({ title: 'menu.nfc', icon: 'WifiOutlined', permission: 'nfc/index/*' });
    // Administrator pages live under /system/, except the review queue SPEC names /auditCheck
    expect(appRoutes.filter((r) => r.meta.admin).every((r) => r.path.startsWith('/system/') || r.path === '/auditCheck')).toBe(true);
  });
});
