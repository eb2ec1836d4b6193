/** Accounts, groups, release tasks, review and platform apps (docs/api-matrix.md). */
import type { Millis } from '../types';

export type Platform = 'dy' | 'ks' | 'sph' | 'xhs' | 'bjh' | 'shop';
export type TaskPlatform = Platform | 'mixed';
export type AccountStatus = 'active' | 'expiring' | 'expired';
export type AccountType = 'personal' | 'enterprise';

export interface Account {
  id: number;
  platform: Platform;
  open_id: string;
  nickname: string;
  avatar: string | null;
  account_type: AccountType;
  group_id: number | null;
  group_name: string | null;
  status: AccountStatus;
  expires_at: Millis | null;
  /** Why the platform ended the authorization ("zh / en"), when it did. */
  revoked_reason?: string;
  province: string | null;
  city: string | null;
  poi_id: string | null;
  poi_name: string | null;
  poi_address: string | null;
  remarks: string | null;
  videos: number;
  plays: number;
  comments: number;
  likes: number;
  synced_at: Millis | null;
  sandbox: boolean;
  created_at: Millis;
}

export interface AccountSummary {
  active: number;
  expiring: number;
  expired: number;
}

/** get_qrCode: dy/ks open a consent page, sph/xhs/shop show a QR code. */
export type AuthStart = { kind: 'oauth'; url: string } | { kind: 'qr'; login_id: string; qr_url: string; expires_at: Millis };

export type QrLoginState = 'qr_pending' | 'sms_challenge' | 'logged_in' | 'expired';

export interface QrLoginStatus {
  state: QrLoginState;
  login_id: string;
  qr_url?: string;
  account?: Account;
}

export interface Poi {
  poi_id: string;
  poi_name: string;
  address: string;
  city: string;
  province: string;
}

export interface AccountGroup {
  id: number;
  name: string;
  accounts: number;
  created_at: Millis;
}

/** getAccountGroup: every group with its accounts (id 0 = ungrouped). */
export interface GroupWithAccounts {
  id: number;
  name: string;
  accounts: Account[];
}

export type MountType = 'none' | 'poi' | 'mini_program' | 'official' | 'product';
export type TimeMode = 'random' | 'specified' | 'timed';
export type ReviewState = 'reviewing' | 'approved' | 'rejected';
export type ItemState = 'to_release' | 'publishing' | 'published' | 'released' | 'failed';

/** What a release task is made of; `*_add` and the createPublishTask calls take it. */
export interface TaskReq {
  name: string;
  /** 'title one#title two' */
  titles: string;
  topics: string[];
  /** One per line. */
  top_comments: string;
  at_users: string[];
  mount_type: MountType;
  province: string;
  city: string;
  merchant_abbr: string;
  poi_id: string;
  poi_name: string;
  poi_address: string;
  mini_app_id: string;
  mini_app_title: string;
  mini_app_url: string;
  official_title: string;
  official_url: string;
  product_id: string;
  time_mode: TimeMode;
  /** YYYY-MM-DD */
  start_date: string;
  /** 1–3 */
  daily_quantity: number;
  /** 1–90 */
  days: number;
  /** HH:mm; specified: one per daily slot, timed: exactly one. */
  times: string[];
  account_ids: number[];
  /** Finished-library variant ids. */
  video_ids: number[];
  /** Uploaded video ids. */
  material_ids: number[];
  publish_count?: number;
  preview?: true;
  /** The preview's seed: confirming with it stores the plan that was shown. */
  seed?: number;
}

export interface PlanItem {
  account_id: number;
  nickname: string;
  platform: Platform;
  /** 'v:<id>' | 'm:<id>' */
  video_key: string;
  video_name: string;
  at: Millis;
  title: string;
}

export interface Plan {
  items: PlanItem[];
  count: number;
  per_account: { min: number; max: number };
  first_at: Millis | null;
  last_at: Millis | null;
  unplaced: number | string[] | Array<{ key?: string; name?: string }>;
  warnings: string[];
  seed?: number;
}

export interface StateCounts {
  total: number;
  to_release: number;
  publishing: number;
  published: number;
  released: number;
  failed: number;
}

export interface Task {
  id: number;
  name: string;
  platform: TaskPlatform;
  created_at: Millis;
  review_state: ReviewState;
  review_reason: string | null;
  review_due_at: Millis | null;
  reviewed_at: Millis | null;
  time_mode: TimeMode;
  start_date: string;
  days: number;
  daily_quantity: number;
  titles: string;
  topics: string[];
  accounts: number;
  videos: number;
  counts: StateCounts;
  /** 0–100 */
  progress: number;
  failed: number;
}

/** A review row: the task with its merchant. */
export interface AuditTask extends Task {
  merchant_name: string;
  overdue: boolean;
}

export interface Item {
  id: number;
  task_id: number;
  task_name: string;
  account: { id: number; nickname: string; platform: Platform; avatar: string | null };
  video: { key: string; name: string; cover: string | null; src: string | null };
  title: string;
  scheduled_at: Millis | null;
  state: ItemState;
  review_state: ReviewState;
  error: string | null;
  attempts: number;
  item_id: string | null;
  share_url: string | null;
  published_at: Millis | null;
  verified_at: Millis | null;
  plays: number;
  likes: number;
  /** The top comments this item posts (texts); its comment count on the platform is `comment_count`. */
  comments: string[];
  comment_count: number;
}

export type VideoSource = 'library' | 'material';

export interface ForwardVideo {
  key: string;
  id: number;
  source: VideoSource;
  name: string;
  cover: string | null;
  src: string | null;
  duration_ms: number | null;
  used: boolean | number;
  project_id: number | null;
}

export interface ForwardConfig {
  platform: Platform;
  limits: { title_max: number; comment_max: number; comment_pick: number; per_account_day: number };
  mount_types: MountType[];
  accounts: Account[];
  sandbox: boolean;
}

export interface AtUser {
  id: number;
  platform: Platform;
  nickname: string;
}

export interface MiniProgram {
  mini_app_id: string;
  title: string;
  url: string;
}

export interface ScheduleReq {
  id: number;
  time_mode: TimeMode;
  start_date: string;
  daily_quantity: number;
  days: number;
  times: string[];
}

export type AuthKind = 'oauth' | 'qr_session' | 'app_token';

export interface PlatformApp {
  platform: Platform;
  auth_kind: AuthKind;
  configured: boolean;
  /** Masked: first 4 characters + ****. */
  client_key: string | null;
  mode: 'live' | 'sandbox';
  base_url: string | null;
}
