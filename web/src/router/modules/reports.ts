import type { AppRoute } from '../types';

/**
 * reports area (DESIGN §4): control booth, usage records, the per-platform analytics (one component,
 * the platform from the path), the special reports (zh-CN routes, SPEC §2) and the data screen.
 */
const REPORTS = ['common/merchant_report/*', 'externalApi/getUserVideo/*'];
const analytics = (path: string, title: string, icon: AppRoute['meta']['icon']): AppRoute => ({
  path,
  meta: { title, icon, permission: REPORTS, permissionMode: 'any' },
  load: () => import('@/pages/reports/analytics'),
});
const special = (path: string, title: string, icon: AppRoute['meta']['icon'], load: AppRoute['load']): AppRoute => ({
  path,
  meta: { title, icon, permission: REPORTS, permissionMode: 'any', lang: 'zh-CN' },
  load,
});

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
  analytics('/dy_num', 'menu.dyNum', 'PlaySquareOutlined'),
  analytics('/ks_num', 'menu.ksNum', 'VideoCameraOutlined'),
  analytics('/dd_num', 'menu.ddNum', 'ShopOutlined'),
  analytics('/video_num', 'menu.videoNum', 'PlaySquareOutlined'),
  analytics('/xhs_num', 'menu.xhsNum', 'BookOutlined'),
  special('/xzsspecial', 'menu.xzsSpecial', 'StarOutlined', () => import('@/pages/reports/special/attribution')),
  special('/special', 'menu.special', 'ScheduleOutlined', () => import('@/pages/reports/special/delivery')),
  special('/specialdyvideo', 'menu.specialDyVideo', 'VideoCameraOutlined', () => import('@/pages/reports/special/dyVideos')),
  special('/special2', 'menu.special2', 'TeamOutlined', () => import('@/pages/reports/special/staff')),
  {
    path: '/actual_screen',
    meta: { title: 'menu.actualScreen', icon: 'DashboardOutlined', permission: 'databoard/index/*' },
    load: () => import('@/pages/reports/screen'),
  },
];

export default routes;
