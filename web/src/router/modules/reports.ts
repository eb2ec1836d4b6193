import type { AppRoute } from '../types';

/** reports area (DESIGN §4): control booth and usage records. */
const routes: AppRoute[] = [
  {
    path: '/dashboard',
    meta: { title: 'menu.dashboard', icon: 'DashboardOutlined', permission: 'index/dashboard/*' },
    load: () => import('@/pages/reports/dashboard'),
  },
  {
    path: '/useRecord',
    meta: {
      title: 'menu.useRecord',
      icon: 'AccountBookOutlined',
      permission: ['common/merchant_usage_record/*', 'bpdr/merchant_usage_record/*'],
      permissionMode: 'any',
    },
    load: () => import('@/pages/reports/useRecord'),
  },
];

export default routes;
