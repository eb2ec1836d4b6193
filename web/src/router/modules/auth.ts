import type { AppRoute } from '../types';

/** auth & users area (DESIGN §4): sign-in pages, user center, staff accounts, operation log. */
const routes: AppRoute[] = [
  { path: '/login', meta: { title: 'menu.login', layout: false }, load: () => import('@/pages/auth/login') },
  { path: '/user_register', meta: { title: 'menu.register', layout: false }, load: () => import('@/pages/auth/register') },
  {
    path: '/reset_password',
    meta: { title: 'menu.resetPassword', layout: false },
    load: () => import('@/pages/auth/resetPassword'),
  },
  {
    path: '/usercenter',
    meta: { title: 'menu.usercenter', icon: 'UserOutlined', hidden: true },
    load: () => import('@/pages/auth/usercenter'),
  },
  {
    path: '/staffAccount',
    meta: { title: 'menu.staffAccount', icon: 'TeamOutlined', hidden: true, permission: 'user/merchant_user_sub/*' },
    load: () => import('@/pages/auth/staffAccount'),
  },
  {
    path: '/log',
    meta: { title: 'menu.log', icon: 'FileTextOutlined', permission: 'index/log/*' },
    load: () => import('@/pages/auth/log'),
  },
];

export default routes;
