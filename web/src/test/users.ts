import type { UserRecord } from '@/api/auth/types';

/** The demo merchant as the server describes it after sign-in. */
export const merchantUser: UserRecord = {
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

/** The operator (no merchant). */
export const operatorUser: UserRecord = { ...merchantUser, id: 1, username: 'admin', nickname: 'Admin', kind: 'operator', merchant_id: null, merchant_name: null, role: ['Administrator'] };

/** A staff member of the demo merchant with only some menus. */
export const staffUser: UserRecord = { ...merchantUser, id: 5, username: 'clerk', nickname: 'Clerk', kind: 'staff', role: ['staff'], permissions: ['task/merchant_forward_task/*'] };
