import type { AppRoute } from '../types';

/** Operator pages (/system/*), role Administrator only. */
const meta = (key: string, icon: AppRoute['meta']['icon']): AppRoute['meta'] => ({
  title: `menu.system${key[0].toUpperCase()}${key.slice(1)}`,
  icon,
  admin: true,
  permission: 'system/*/*',
});

const routes: AppRoute[] = [
  { path: '/system/merchant', meta: meta('merchant', 'ShopOutlined'), load: () => import('@/pages/system/merchant') },
  { path: '/system/role', meta: meta('role', 'SafetyOutlined'), load: () => import('@/pages/system/role') },
  { path: '/system/menu', meta: meta('menu', 'MenuOutlined'), load: () => import('@/pages/system/menu') },
  { path: '/system/log', meta: meta('log', 'FileSearchOutlined'), load: () => import('@/pages/system/log') },
  { path: '/system/tasks', meta: meta('tasks', 'ScheduleOutlined'), load: () => import('@/pages/system/tasks') },
  { path: '/system/dic', meta: meta('dic', 'BookOutlined'), load: () => import('@/pages/system/dic') },
  { path: '/system/sms', meta: meta('sms', 'MessageOutlined'), load: () => import('@/pages/system/sms') },
];

export default routes;
