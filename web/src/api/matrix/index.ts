/**
 * Matrix area (docs/api-matrix.md): authorized accounts and their groups, release tasks and their
 * items, the operator's review queue and platform apps. Lists are read by DataTable through
 * `matrixUrls`; reads answer GET or POST, so every call here is a POST (bodies, no query strings).
 */
import { http } from '../request';
import type { ListResult } from '../types';
import type {
  Account,
  AccountGroup,
  AccountSummary,
  AppSaved,
  AtUser,
  AuditTask,
  AuthStart,
  ForwardConfig,
  ForwardVideo,
  GroupName,
  GroupWithAccounts,
  Item,
  MiniProgram,
  Plan,
  Platform,
  PlatformApp,
  Poi,
  QrLoginStatus,
  ScheduleReq,
  StateCounts,
  Task,
  TaskPlatform,
  TaskReq,
  VideoSource,
} from './types';

const GU = '/task.merchant_group_user';
const MG = '/task.merchant_matrix_group';
const FT = '/task.merchant_forward_task';
const PM = '/matrix.merchant_publish_management';
const AT = '/bpdr.merchant_aite_users';
const AUDIT = '/system/audit';
const APP = '/system/app';

export const matrixUrls = {
  accounts: `${GU}/index`,
  expiring: `${GU}/expire_user`,
  groups: `${MG}/index`,
  tasks: `${FT}/index`,
  items: `${FT}/forward_video_release`,
  videos: `${FT}/forward_video`,
  audit: `${AUDIT}/index`,
  apps: `${APP}/index`,
} as const;

type Empty = Record<string, never>;
const PICK_LIMIT = 1000;

export const PLATFORMS: Platform[] = ['dy', 'ks', 'sph', 'xhs', 'bjh', 'shop'];
/** Platforms whose accounts are logged in by scanning a QR code (stored sessions). */
export const SESSION_PLATFORMS: Platform[] = ['sph', 'xhs', 'shop'];
export const OAUTH_PLATFORMS: Platform[] = ['dy', 'ks'];
/** Call prefix of the per-platform task calls (SPEC's `bp` is the shop platform). */
export const callPrefix = (p: Platform): string => (p === 'shop' ? 'bp' : p);

// ---- accounts
export const fetchAccounts = (params: Record<string, unknown> = {}) =>
  http.post<ListResult<Account, AccountSummary>>(matrixUrls.accounts, { limit: PICK_LIMIT, ...params });
export const startAuthorize = (platform: Platform, groupId?: number | null) =>
  http.post<AuthStart>(`${GU}/get_qrCode`, groupId ? { platform, group_id: groupId } : { platform });

/** Polls (or answers the SMS step of) a QR login: sphLogin / xhsLogin, qr_login for the shop platform. */
export function pollQrLogin(platform: Platform, loginId: string, smsCode?: string) {
  const body: Record<string, unknown> = { login_id: loginId };
  if (smsCode) body.sms_code = smsCode;
  if (platform === 'sph') return http.post<QrLoginStatus>(`${GU}/sphLogin`, body, { silent: !smsCode });
  if (platform === 'xhs') return http.post<QrLoginStatus>(`${GU}/xhsLogin`, body, { silent: !smsCode });
  return http.post<QrLoginStatus>(`${GU}/qr_login`, { platform, ...body }, { silent: !smsCode });
}
/** 422 'The platform refused the app id / token' is shown at the field (silent). */
export const bjhLogin = (appId: string, appToken: string, groupId?: number | null) =>
  http.post<Account>(`${GU}/bjhLogin`, groupId ? { app_id: appId, app_token: appToken, group_id: groupId } : { app_id: appId, app_token: appToken }, { silent: true });
/** 422 with the reason when the platform refuses (the account turns expired). */
export const renewAccount = (id: number) => http.post<Account>(`${GU}/renew`, { id });
export const saveAccount = (body: { id: number; group_id?: number | null; remarks?: string; account_type?: string }) =>
  http.post<Account>(`${GU}/user_save`, body, { silent: true });
export const updateNotes = (id: number, remarks: string) => http.post<Account>(`${GU}/update_notes`, { id, remarks });
export const updateAddress = (body: { id: number; province?: string; city?: string; poi_id?: string; poi_name?: string; poi_address?: string }) =>
  http.post<Account>(`${GU}/update_address`, body, { silent: true });
export const searchPoi = (keyword: string, city?: string) =>
  http.post<{ rows: Poi[] }>(`${GU}/getPoiId`, city ? { keyword, city } : { keyword }, { silent: true });
export const clearPoi = (id: number) => http.post<Account>(`${GU}/discharge_poi`, { id });
/** 422 while one of its items is publishing. */
export const deleteAccounts = (ids: number[]) => http.post<Empty>(`${GU}/delete`, ids.length === 1 ? { id: ids[0] } : { ids });

// ---- groups
export const fetchGroups = () => http.post<ListResult<AccountGroup>>(matrixUrls.groups, { limit: PICK_LIMIT });
export const addGroup = (name: string) => http.post<GroupName>(`${MG}/add`, { name }, { silent: true });
export const editGroup = (id: number, name: string) => http.post<GroupName>(`${MG}/edit`, { id, name }, { silent: true });
export const deleteGroup = (id: number) => http.post<Empty>(`${MG}/delete`, { id });

// ---- release tasks
export const fetchForwardConfig = (p: Platform) => http.post<ForwardConfig>(`${FT}/${callPrefix(p)}_forward_config`, {}, { silent: true });
export const fetchVideos = (params: { source?: VideoSource; project_id?: number; used?: 0 | 1; filterObj?: Record<string, string> } = {}) =>
  http.post<ListResult<ForwardVideo>>(matrixUrls.videos, { limit: 200, ...params });
export const fetchGroupUsers = (params: { group_id?: number; platform?: Platform } = {}) =>
  http.post<{ rows: Account[] }>(`${FT}/get_group_user`, params);
export const fetchAccountGroups = () => http.post<{ rows: GroupWithAccounts[] }>(`${PM}/getAccountGroup`, {});
export const randomTitles = (count = 5) => http.post<{ rows: string[] }>(`${PM}/getRandomAiTitleList`, { count });
export const randomTopics = (count = 5) => http.post<{ rows: string[] }>(`${PM}/getRandomTopicList`, { count });
export const searchPublishPoi = (keyword: string, city?: string) =>
  http.post<{ rows: Poi[] }>(`${PM}/getPOIAddress`, city ? { keyword, city } : { keyword }, { silent: true });
export const fetchAtUsers = (platform?: Platform) => http.post<{ rows: AtUser[] }>(`${PM}/getATUsers`, platform ? { platform } : {});
export const fetchMiniPrograms = () => http.post<{ rows: MiniProgram[] }>(`${PM}/getMiniProgramInformation`, {});

/**
 * Creates (or with `preview: true` plans) a release task: `<prefix>_add` for one platform,
 * createCommonPublishTask for accounts of several. Silent: a 422 is shown at its field.
 */
export function submitTask(platform: TaskPlatform, req: TaskReq & { preview: true }): Promise<Plan>;
export function submitTask(platform: TaskPlatform, req: TaskReq): Promise<{ task: Task; plan: Plan }>;
export function submitTask(platform: TaskPlatform, req: TaskReq) {
  const url = platform === 'mixed' ? `${PM}/createCommonPublishTask` : `${FT}/${callPrefix(platform)}_add`;
  return http.post<unknown>(url, req, { silent: true });
}
/** Cancels the items not yet published; 422 while one is publishing. */
export const deleteTask = (id: number) => http.post<Empty>(`${FT}/delete`, { id });
export const fetchItems = (taskId: number) => http.post<ListResult<Item, StateCounts>>(matrixUrls.items, { task_id: taskId, limit: PICK_LIMIT });
export const fetchTaskCounts = (taskId: number) => http.post<StateCounts>(`${FT}/forward_video_sm_release`, { task_id: taskId });

const isSession = (p: TaskPlatform | undefined) => Boolean(p && (SESSION_PLATFORMS as string[]).includes(p));
/** Publish now: one item (a failed one is retried) or every failed / waiting item of a task. */
export const publishNow = (target: { id: number } | { task_id: number }, platform?: TaskPlatform) =>
  http.post<{ queued: number }>(`${FT}/${isSession(platform) ? 'external_release' : 'manual_forward'}`, target);
/** Replans the items not yet published. */
export const rescheduleTask = (req: ScheduleReq, platform?: TaskPlatform) =>
  http.post<Task>(`${FT}/${isSession(platform) ? 'external_task_time_save' : 'task_time_save'}`, req, { silent: true });
export const sendTopComments = (itemId: number) => http.post<{ sent: number }>(`${FT}/top_comment_send`, { id: itemId });

// ---- @-mention users
export const addAtUser = (platform: Platform, nickname: string) => http.post<AtUser>(`${AT}/add`, { platform, nickname });
export const deleteAtUser = (id: number) => http.post<Empty>(`${AT}/delete`, { id });

// ---- review (Administrator)
export const fetchAuditDetail = (id: number) => http.post<{ task: AuditTask; items: Item[] }>(`${AUDIT}/detail`, { id });
export const approveTask = (id: number) => http.post<Task>(`${AUDIT}/approve`, { id });
export const rejectTask = (id: number, reason: string) => http.post<Task>(`${AUDIT}/reject`, { id, reason }, { silent: true });

// ---- platform apps (Administrator)
export const fetchApps = () => http.post<{ rows: PlatformApp[] }>(matrixUrls.apps, {});
export const saveApp = (platform: Platform, clientKey: string, clientSecret: string) =>
  http.post<AppSaved>(`${APP}/save`, { platform, client_key: clientKey, client_secret: clientSecret }, { silent: true });
export const clearApp = (platform: Platform) => http.post<Empty>(`${APP}/clear`, { platform });

// ---- Douyin H5 share (tap-to-post)
export interface ShareLink {
  share_id: string;
  schema?: string;
  expires_at?: number;
  state: 'waiting' | 'published';
  item_id?: string;
}
/** Makes a signed share link for one video (`v:<id>` / `m:<id>`), or with `share_id` polls it. */
export const dyShare = (body: { video_key: string; title: string; topics: string[] } | { share_id: string }) =>
  http.post<ShareLink>(`${GU}/dy_share`, body, { silent: 'share_id' in body });
