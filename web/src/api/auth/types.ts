import type { Millis } from '../types';

export type LoginType = 1 | 2 | 3;
export type SmsScene = 'login' | 'register' | 'reset';

export interface LoginIndex {
  app_name: string;
  version: string;
  login_types: LoginType[];
  agreements: { service_title: string; privacy_title: string; service_url: string; privacy_url: string };
  sandbox: boolean;
  remember_hours: number;
  session_hours: number;
}

export interface PlatformInit {
  app_name: string;
  version: string;
  home_type: 1 | 2;
  default_language: string;
  languages: string[];
  sandbox: boolean;
  theme: { primary: string; layout: string };
}

export interface UserRecord {
  id: number;
  username: string;
  nickname: string;
  mobile: string | null;
  kind: 'operator' | 'merchant' | 'staff';
  merchant_id: number | null;
  merchant_name: string | null;
  role: string[];
  permissions: string[];
  proxy_info: { user_name: string | null } | null;
  home_type: number;
  ai_token: string | null;
  vip: boolean;
  avatar: string | null;
}

export interface LoginResult {
  token: string;
  expires_at: Millis;
  remember: boolean;
  user: UserRecord;
}

export interface LoginBody {
  login_type: LoginType;
  username?: string;
  password?: string;
  mobile?: string;
  code?: string;
  agree: boolean;
  remember: boolean;
}

export interface RegisterBody {
  merchant_name: string;
  username: string;
  mobile: string;
  code: string;
  password: string;
  password_confirm: string;
  agree: boolean;
}

export interface ResetPasswordBody {
  mobile: string;
  code: string;
  password: string;
  password_confirm: string;
}

export interface MenuNode {
  id: number | string;
  path: string;
  name: string;
  icon: string | null;
  /** Permission pattern(s) the menu grants. */
  permission: string | string[] | null;
  hidden: boolean;
  admin: boolean;
  vip: boolean;
  children?: MenuNode[];
}

export interface InitAdmin {
  menu: MenuNode[];
  permissions: string[];
  role: string[];
  user: UserRecord;
}

export interface Banner {
  id: number;
  title: string;
  image: string;
  link: string;
}

export interface Course {
  id: number;
  title: string;
  cover: string;
  link: string;
  created_at: Millis;
}

export interface Dashboard {
  points: number;
  publish: { days: string[]; success: number[]; failed: number[] };
  video: { days: string[]; plays: number[]; likes: number[] };
  has_publish_data: boolean;
  has_video_data: boolean;
}

export interface VersionLog {
  id: number;
  version: string;
  content: string;
  created_at: Millis;
}

export interface OperationLog {
  id: number;
  username: string;
  method: string;
  path: string;
  /** The permission the call was checked against (what the action filter matches). */
  action: string;
  /** The action in words, in the reader's language: function and verb. */
  action_name?: string;
  result: 'success' | 'failed';
  status: number;
  message: string;
  ip: string;
  created_at: Millis;
  merchant_name?: string;
}

export interface UsageRecord {
  id: number;
  change: number;
  balance: number;
  kind: 'topup' | 'deduct' | 'refund';
  reason: string;
  job_key: string | null;
  created_at: Millis;
  operator: string | null;
}

export interface UsageSummary {
  topup: number;
  deduct: number;
}

export interface StaffRow {
  id: number;
  username: string;
  nickname: string;
  mobile: string | null;
  status: 1 | 0;
  menu_ids: Array<number | string>;
  created_at: Millis;
  last_login_at: Millis | null;
}

export interface StaffAddBody {
  username: string;
  nickname: string;
  mobile?: string;
  password: string;
  menu_ids?: Array<number | string>;
}

export interface StaffEditBody {
  id: number;
  nickname: string;
  mobile?: string;
  password?: string;
  status?: 1 | 0;
}

export interface AuthMenu {
  tree: MenuNode[];
  checked: Array<number | string>;
}
