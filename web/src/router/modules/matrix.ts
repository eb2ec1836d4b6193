import type { AppRoute } from '../types';

/** matrix area (docs/api-matrix.md): accounts and their groups, release tasks, the review queue and platform apps. */
const routes: AppRoute[] = [
  {
    path: '/send_management',
    meta: { title: 'menu.sendManagement', icon: 'ScheduleOutlined', permission: 'task/merchant_forward_task/*' },
    load: () => import('@/pages/matrix/sendManagement'),
  },
  {
    path: '/account_auth',
    meta: { title: 'menu.accountAuth', icon: 'SafetyOutlined', permission: 'task/merchant_group_user/*' },
    load: () => import('@/pages/matrix/accountAuth'),
  },
  {
    path: '/account_classify',
    meta: { title: 'menu.accountClassify', icon: 'ApartmentOutlined', permission: 'task/merchant_matrix_group/*' },
    load: () => import('@/pages/matrix/accountClassify'),
  },
  {
    path: '/auth_mature',
    meta: { title: 'menu.authMature', icon: 'UserOutlined', permission: 'task/merchant_group_user/*' },
    load: () => import('@/pages/matrix/authMature'),
  },
  {
    path: '/user_library',
    // SPEC §2: in the English route table only.
    meta: { title: 'menu.userLibrary', icon: 'TeamOutlined', permission: 'task/merchant_group_user/*', lang: 'en' },
    load: () => import('@/pages/matrix/userLibrary'),
  },
  {
    path: '/auditCheck',
    meta: { title: 'menu.auditCheck', icon: 'FileSearchOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/matrix/auditCheck'),
  },
  {
    path: '/system/app',
    meta: { title: 'menu.systemApp', icon: 'AppstoreOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/matrix/systemApp'),
  },
];

export default routes;
