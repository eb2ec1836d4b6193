/**
 * Matrix area (docs/api-matrix.md): authorized accounts and their groups, release tasks and their
 * items, the operator's review queue and platform apps. Lists are read by DataTable through
 * `matrixUrls`; reads answer GET or POST, so every call here is a POST (bodies, no query strings).
 */
import { api, narrowed, unchecked, type Body } from '../client';
import type { components } from '../schema';
import type { ListResult } from '../types';
import type {
  Account,
  BatchAdded,
  BatchRow,
  AccountGroup,
  AccountSummary,
  AppMode,
  AppSaved,
  AtUser,
  AuditTask,
  AuthStart,
  CanaryState,
  ForwardConfig,
  ForwardVideo,
  GroupName,
  GroupWithAccounts,
  Item,
  MiniProgram,
  NoteImage,
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
  ServiceMode,
  VendorApp,
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
  /** The accounts list as xlsx / CSV, with its filters. */
  accountsExport: `${GU}/export`,
  /** Accounts' groups and remarks from a sheet, and its template. */
  accountsImport: `${GU}/import`,
  accountsImportTemplate: `${GU}/import_template`,
  expiring: `${GU}/expire_user`,
  groups: `${MG}/index`,
  tasks: `${FT}/index`,
  items: `${FT}/forward_video_release`,
  tasksExport: `${FT}/export`,
  itemsExport: `${FT}/export_items`,
  /** Release batches: the sheet's template, reading an uploaded sheet into rows. */
  batchTemplate: `${FT}/batch_template`,
  batchRead: `${FT}/batch_read`,
  videos: `${FT}/forward_video`,
  audit: `${AUDIT}/index`,
  apps: `${APP}/index`,
} as const;

type Empty = Record<string, never>;
const PICK_LIMIT = 1000;

/**
 * The area's query keys: a write marks the area stale (`useWrite`), so the tables, the platform cards
 * and the group pickers on screen read again.
 */
export const matrixKeys = {
  all: ['matrix'] as const,
  groups: ['matrix', 'groups'] as const,
  forwardConfig: ['matrix', 'forwardConfig'] as const,
};

export const PLATFORMS: Platform[] = ['dy', 'ks', 'sph', 'xhs', 'bjh', 'shop'];
/** Platforms whose accounts are logged in by scanning a QR code (stored sessions). */
export const SESSION_PLATFORMS: Platform[] = ['sph', 'xhs', 'shop'];
export const OAUTH_PLATFORMS: Platform[] = ['dy', 'ks'];
/** Call prefix of the per-platform task calls (SPEC's `bp` is the shop platform). */
export const callPrefix = (p: Platform) => (p === 'shop' ? 'bp' : p);

// ---- accounts
export const fetchAccounts = (params: Record<string, unknown> = {}): Promise<ListResult<Account, AccountSummary>> =>
  unchecked(api.post(matrixUrls.accounts, { limit: PICK_LIMIT, ...params }));
/** `proxy`: a creator-console QR login's page goes through it, and the account then posts through it (a 422 at `proxy` is silent: shown at the field). */
export const startAuthorize = (platform: Platform, groupId?: number | null, proxy?: string): Promise<AuthStart> =>
  api.post(`${GU}/get_qrCode`, { platform, ...(groupId ? { group_id: groupId } : {}), ...(proxy ? { proxy } : {}) }, { silent: Boolean(proxy) });

/** Polls (or answers the SMS step of) a QR login: sphLogin / xhsLogin, qr_login for the shop platform. */
/** A poll of a QR login; `smsCode` (typed) or `slide` (where the piece of a slider puzzle was placed, 0-1) answer the page's challenge first. */
export function pollQrLogin(platform: Platform, loginId: string, smsCode?: string, slide?: number): Promise<QrLoginStatus> {
  const body: Record<string, unknown> = { login_id: loginId };
  if (smsCode) body.sms_code = smsCode;
  if (slide !== undefined) body.slide = slide;
  const silent = !smsCode && slide === undefined;
  if (platform === 'sph') return narrowed(api.post(`${GU}/sphLogin`, body, { silent }));
  if (platform === 'xhs') return narrowed(api.post(`${GU}/xhsLogin`, body, { silent }));
  return narrowed(api.post(`${GU}/qr_login`, { platform, ...body }, { silent }));
}
/** 422 'The platform refused the app id / token' is shown at the field (silent). */
export const bjhLogin = (appId: string, appToken: string, groupId?: number | null): Promise<Account> =>
  narrowed(api.post(`${GU}/bjhLogin`, groupId ? { app_id: appId, app_token: appToken, group_id: groupId } : { app_id: appId, app_token: appToken }, { silent: true }));
/** 422 with the reason when the platform refuses (the account turns expired). */
export const renewAccount = (id: number): Promise<Account> => narrowed(api.post(`${GU}/renew`, { id }));
export const saveAccount = (body: Body<'/task.merchant_group_user/user_save'>): Promise<Account> =>
  narrowed(api.post(`${GU}/user_save`, body, { silent: true }));
export const updateNotes = (id: number, remarks: string): Promise<Account> => narrowed(api.post(`${GU}/update_notes`, { id, remarks }));
/** The proxy a creator-console account's browser goes through; empty removes it. */
export const updateProxy = (id: number, proxy: string): Promise<Account> =>
  narrowed(api.post(`${GU}/update_proxy`, { id, proxy }, { silent: true }));
export const updateAddress = (body: Body<'/task.merchant_group_user/update_address'>): Promise<Account> =>
  narrowed(api.post(`${GU}/update_address`, body, { silent: true }));
export const searchPoi = (keyword: string, city?: string): Promise<{ rows: Poi[] }> =>
  api.post(`${GU}/getPoiId`, city ? { keyword, city } : { keyword }, { silent: true });
export const clearPoi = (id: number): Promise<Account> => narrowed(api.post(`${GU}/discharge_poi`, { id }));
/** 422 while one of its items is publishing. */
export const deleteAccounts = (ids: number[]): Promise<Empty> => api.post(`${GU}/delete`, ids.length === 1 ? { id: ids[0] } : { ids });

// ---- groups
export const fetchGroups = (): Promise<ListResult<AccountGroup>> => api.post(matrixUrls.groups, { limit: PICK_LIMIT });
export const addGroup = (name: string): Promise<GroupName> => api.post(`${MG}/add`, { name }, { silent: true });
export const editGroup = (id: number, name: string): Promise<GroupName> => api.post(`${MG}/edit`, { id, name }, { silent: true });
export const deleteGroup = (id: number): Promise<Empty> => api.post(`${MG}/delete`, { id });

// ---- release tasks
export const fetchForwardConfig = (p: Platform): Promise<ForwardConfig> => narrowed(api.post(`${FT}/${callPrefix(p)}_forward_config`, {}, { silent: true }));
export const fetchVideos = (params: { source?: VideoSource; project_id?: number; used?: 0 | 1; filterObj?: Record<string, string> } = {}): Promise<ListResult<ForwardVideo>> =>
  narrowed(api.post(matrixUrls.videos, { limit: 200, ...params }));
/** The image library's pictures an image note can post (`/image` library, newest first). */
export const fetchNoteImages = (): Promise<ListResult<NoteImage>> => narrowed(api.post('/media.merchant_producing_upfile/image_index', { limit: 200 }));
export const fetchGroupUsers = (params: { group_id?: number; platform?: Platform } = {}): Promise<{ rows: Account[] }> =>
  narrowed(api.post(`${FT}/get_group_user`, params));
export const fetchAccountGroups = (): Promise<{ rows: GroupWithAccounts[] }> => narrowed(api.post(`${PM}/getAccountGroup`, {}));
/** Generated texts and who wrote them (the operator's AI service or the built-in writer). */
export type WrittenRows = components['schemas']['WrittenRows'];
export const randomTitles = (count = 5): Promise<WrittenRows> => api.post(`${PM}/getRandomAiTitleList`, { count });
export const randomTopics = (count = 5): Promise<WrittenRows> => api.post(`${PM}/getRandomTopicList`, { count });
export const searchPublishPoi = (keyword: string, city?: string): Promise<{ rows: Poi[] }> =>
  api.post(`${PM}/getPOIAddress`, city ? { keyword, city } : { keyword }, { silent: true });
export const fetchAtUsers = (platform?: Platform): Promise<{ rows: AtUser[] }> => narrowed(api.post(`${PM}/getATUsers`, platform ? { platform } : {}));
export const fetchMiniPrograms = (): Promise<{ rows: MiniProgram[] }> => api.post(`${PM}/getMiniProgramInformation`, {});

/**
 * Creates (or with `preview: true` plans) a release task: `<prefix>_add` for one platform,
 * createCommonPublishTask for accounts of several. Silent: a 422 is shown at its field.
 */
export function submitTask(platform: TaskPlatform, req: TaskReq & { preview: true }): Promise<Plan>;
export function submitTask(platform: TaskPlatform, req: TaskReq): Promise<{ task: Task; plan: Plan }>;
export function submitTask(platform: TaskPlatform, req: TaskReq) {
  const url = platform === 'mixed' ? (`${PM}/createCommonPublishTask` as const) : (`${FT}/${callPrefix(platform)}_add` as const);
  return api.post(url, req, { silent: true });
}
/** Cancels the items not yet published; 422 while one is publishing. */
export const deleteTask = (id: number): Promise<Empty> => api.post(`${FT}/delete`, { id });
/** Creates one release task from a batch's rows (`check`: only checks them); 422 `data.rows` names every bad row. */
export const submitBatch = (name: string, rows: BatchRow[], check = false): Promise<BatchAdded> =>
  narrowed(api.post(`${FT}/batch_add`, { name, rows, check }, { silent: true }));
export const fetchItems = (taskId: number): Promise<ListResult<Item, StateCounts>> => unchecked(api.post(matrixUrls.items, { task_id: taskId, limit: PICK_LIMIT }));
export const fetchTaskCounts = (taskId: number): Promise<StateCounts> => api.post(`${FT}/forward_video_sm_release`, { task_id: taskId });

const isSession = (p: TaskPlatform | undefined) => Boolean(p && (SESSION_PLATFORMS as string[]).includes(p));
/** Publish now: one item (a failed one is retried) or every failed / waiting item of a task. */
export const publishNow = (target: { id: number } | { task_id: number }, platform?: TaskPlatform): Promise<{ queued: number }> =>
  api.post(`${FT}/${isSession(platform) ? 'external_release' : 'manual_forward'}`, target);
/** Replans the items not yet published. */
export const rescheduleTask = (req: ScheduleReq, platform?: TaskPlatform): Promise<Task> =>
  narrowed(api.post(`${FT}/${isSession(platform) ? 'external_task_time_save' : 'task_time_save'}`, req, { silent: true }));
export const sendTopComments = (itemId: number): Promise<{ sent: number }> => api.post(`${FT}/top_comment_send`, { id: itemId });

// ---- @-mention users
export const addAtUser = (platform: Platform, nickname: string): Promise<AtUser> => unchecked(api.post(`${AT}/add`, { platform, nickname }));
export const deleteAtUser = (id: number): Promise<Empty> => api.post(`${AT}/delete`, { id });

// ---- review (Administrator)
export const fetchAuditDetail = (id: number): Promise<{ task: AuditTask; items: Item[] }> => narrowed(api.post(`${AUDIT}/detail`, { id }));
export const approveTask = (id: number): Promise<Task> => narrowed(api.post(`${AUDIT}/approve`, { id }));
export const rejectTask = (id: number, reason: string): Promise<Task> => narrowed(api.post(`${AUDIT}/reject`, { id, reason }, { silent: true }));

// ---- platform apps (Administrator)
export const fetchApps = (): Promise<{ rows: PlatformApp[] }> => narrowed(api.post(matrixUrls.apps, {}));
export const saveApp = (platform: Platform, clientKey: string, clientSecret: string): Promise<AppSaved> =>
  narrowed(api.post(`${APP}/save`, { platform, client_key: clientKey, client_secret: clientSecret }, { silent: true }));
export const clearApp = (platform: Platform): Promise<Empty> => api.post(`${APP}/clear`, { platform });
// Where a platform's (or WeChat's) calls go: live, sandbox, off, or back to the default.
export const setAppMode = (platform: Platform | 'wechat', mode: AppMode | 'default'): Promise<Empty> => api.post(`${APP}/mode`, { platform, mode });
export const fetchServiceModes = (): Promise<{ rows: ServiceMode[] }> => narrowed(api.post(`${APP}/services`, {}));
// The page check (canary) of a creator console: walks a publish to its last click; a failure pauses the platform.
export const runCanary = (platform: Platform): Promise<CanaryState> => narrowed(api.post(`${APP}/canary`, { platform }, { timeout: 300_000 }));
export const resumeCanary = (platform: Platform): Promise<CanaryState | null> => narrowed(api.post(`${APP}/canary_resume`, { platform }));
// The data vendor (TikHub) of the SEO benchmark accounts: its key is sealed like the app secrets.
export const fetchVendor = (): Promise<VendorApp> => narrowed(api.post(`${APP}/vendor`, {}));
export const saveVendor = (apiKey: string): Promise<VendorApp> => narrowed(api.post(`${APP}/vendor_save`, { api_key: apiKey }, { silent: true }));
export const clearVendor = (): Promise<VendorApp> => narrowed(api.post(`${APP}/vendor_clear`, {}));

// ---- Douyin H5 share (tap-to-post)
export interface ShareLink {
  share_id: string;
  schema?: string;
  expires_at?: number;
  state: 'waiting' | 'published';
  item_id?: string;
}
/** Makes a signed share link for one video (`v:<id>` / `m:<id>`), or with `share_id` polls it. */
export const dyShare = (body: Body<'/task.merchant_group_user/dy_share'>): Promise<ShareLink> =>
  unchecked(api.post(`${GU}/dy_share`, body, { silent: 'share_id' in body }));
