/** Typed calls of docs/api-foundation.md (everything outside /system/*). */
import { api, narrowed, type Body } from '../client';
import type { ListParams, ListResult } from '../types';
import type {
  ApiTokenBody,
  AuthMenu,
  CreatedApiToken,
  Banner,
  Course,
  InitAdmin,
  LoginBody,
  LoginIndex,
  LoginResult,
  OperationLog,
  PlatformInit,
  RegisterBody,
  ResetPasswordBody,
  SmsScene,
  StaffAddBody,
  StaffEditBody,
  StaffRow,
  UsageRecord,
  UsageSummary,
  UserRecord,
  VersionLog,
} from './types';

/** The area's query keys: a write marks the area stale (`useWrite`), so the staff table on screen reads again. */
export const authKeys = {
  all: ['auth'] as const,
  staffAuthMenu: (staffId: number | undefined) => ['auth', 'staffAuthMenu', staffId] as const,
};

export const authUrls = {
  log: '/index/log',
  logExport: '/index/log/export',
  usageRecords: '/common.merchant_usage_record/index',
  usageExport: '/common.merchant_usage_record/export',
  staffList: '/user.merchant_user_sub/list',
  versionLog: '/version_log/getList',
  apiTokens: '/index/apiTokens',
} as const;

// public
export const fetchLoginIndex = (): Promise<LoginIndex> => narrowed(api.get('/login/index', undefined, { silent: true }));
export const fetchPlatformInit = (): Promise<PlatformInit> => api.get('/index/platformInit', undefined, { silent: true });
export const sendSms = (mobile: string, scene: SmsScene): Promise<{ sent: boolean; resend_after_ms: number }> =>
  api.post('/login/sms', { mobile, scene });
export const login = (body: LoginBody): Promise<LoginResult> => api.post('/login/auth', body);
export const verifyJwtToken = (proxyToken: string): Promise<LoginResult> => api.post('/login/verifyJwtToken', { proxyToken });
export const register = (body: RegisterBody): Promise<LoginResult> => api.post('/login/register', body);
export const resetPassword = (body: ResetPasswordBody): Promise<Record<string, never>> => api.post('/login/reset_password', body);
export const fetchVersionLog = (params: ListParams = { page: 1, pageSize: 10 }): Promise<ListResult<VersionLog>> =>
  api.get(authUrls.versionLog, params);

// signed in
export const refreshToken = (): Promise<LoginResult> => api.post('/token', undefined, { silent: true });
export const logout = (): Promise<Record<string, never>> => api.post('/login/logout', undefined, { silent: true });
export const fetchInitAdmin = (): Promise<InitAdmin> => api.get('/ajax/initAdmin');
export const fetchProfile = (): Promise<UserRecord> => api.get('/index/profile');
export const editProfile = (body: Body<'/index/editProfile'>): Promise<UserRecord> =>
  api.post('/index/editProfile', body);
export const editPassword = (body: Body<'/index/editPassword.html'>): Promise<Record<string, never>> =>
  api.post('/index/editPassword.html', body);
export const fetchBanners = (): Promise<ListResult<Banner>> => api.post('/index/banner');
export const fetchCourses = (): Promise<ListResult<Course>> => api.get('/index/getIndexCourseList');
// the user's personal API tokens (the token itself is in the create answer only)
export const createApiToken = (body: ApiTokenBody): Promise<CreatedApiToken> => api.post('/index/addApiToken', body);
export const revokeApiToken = (id: number): Promise<Record<string, never>> => api.post('/index/revokeApiToken', { id });
export const fetchOperationLog = (params: ListParams): Promise<ListResult<OperationLog>> => api.get(authUrls.log, params);
export const fetchUsageRecords = (params: ListParams): Promise<ListResult<UsageRecord, UsageSummary>> =>
  api.get(authUrls.usageRecords, params);

// staff sub-accounts
export const fetchStaffList = (params: ListParams): Promise<ListResult<StaffRow>> => api.get(authUrls.staffList, params);
export const addStaff = (body: StaffAddBody): Promise<StaffRow> => api.post('/user.merchant_user_sub/add', body);
export const editStaff = (body: StaffEditBody): Promise<StaffRow> => api.post('/user.merchant_user_sub/edit', body);
export const deleteStaff = (id: number): Promise<Record<string, never>> => api.post('/user.merchant_user_sub/delete', { id });
export const fetchStaffInfo = (id: number): Promise<StaffRow> => api.get('/user.merchant_user_sub/info', { id });
export const fetchStaffAuthMenu = (id: number): Promise<AuthMenu> => api.get('/user.merchant_user_sub/authMenu', { id });
export const saveStaffAuthMenu = (id: number, menu_ids: number[]): Promise<{ checked: Array<number | string> }> =>
  api.post('/user.merchant_user_sub/authMenu', { id, menu_ids });
