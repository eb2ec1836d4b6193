/** Typed calls of docs/api-foundation.md (everything outside /system/*). */
import { http } from '../request';
import type { ListParams, ListResult } from '../types';
import type {
  AuthMenu,
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

export const authUrls = {
  log: '/index/log',
  usageRecords: '/common.merchant_usage_record/index',
  staffList: '/user.merchant_user_sub/list',
  versionLog: '/version_log/getList',
} as const;

// public
export const fetchLoginIndex = () => http.get<LoginIndex>('/login/index', undefined, { silent: true });
export const fetchPlatformInit = () => http.get<PlatformInit>('/index/platformInit', undefined, { silent: true });
export const sendSms = (mobile: string, scene: SmsScene) =>
  http.post<{ sent: boolean; resend_after_ms: number }>('/login/sms', { mobile, scene });
export const login = (body: LoginBody) => http.post<LoginResult>('/login/auth', body);
export const verifyJwtToken = (proxyToken: string) => http.post<LoginResult>('/login/verifyJwtToken', { proxyToken });
export const register = (body: RegisterBody) => http.post<LoginResult>('/login/register', body);
export const resetPassword = (body: ResetPasswordBody) => http.post<Record<string, never>>('/login/reset_password', body);
export const fetchVersionLog = (params: ListParams = { page: 1, pageSize: 10 }) =>
  http.get<ListResult<VersionLog>>(authUrls.versionLog, params);

// signed in
export const refreshToken = () => http.post<LoginResult>('/token', undefined, { silent: true });
export const logout = () => http.post<Record<string, never>>('/login/logout', undefined, { silent: true });
export const fetchInitAdmin = () => http.get<InitAdmin>('/ajax/initAdmin');
export const fetchProfile = () => http.get<UserRecord>('/index/profile');
export const editProfile = (body: { nickname: string; mobile?: string; avatar?: string }) =>
  http.post<UserRecord>('/index/editProfile', body);
export const editPassword = (body: { old_password: string; password: string; password_confirm: string }) =>
  http.post<Record<string, never>>('/index/editPassword.html', body);
export const fetchBanners = () => http.post<ListResult<Banner>>('/index/banner');
export const fetchCourses = () => http.get<ListResult<Course>>('/index/getIndexCourseList');
export const fetchOperationLog = (params: ListParams) => http.get<ListResult<OperationLog>>(authUrls.log, params);
export const fetchUsageRecords = (params: ListParams) =>
  http.get<ListResult<UsageRecord, UsageSummary>>(authUrls.usageRecords, params);

// staff sub-accounts
export const fetchStaffList = (params: ListParams) => http.get<ListResult<StaffRow>>(authUrls.staffList, params);
export const addStaff = (body: StaffAddBody) => http.post<StaffRow>('/user.merchant_user_sub/add', body);
export const editStaff = (body: StaffEditBody) => http.post<StaffRow>('/user.merchant_user_sub/edit', body);
export const deleteStaff = (id: number) => http.post<Record<string, never>>('/user.merchant_user_sub/delete', { id });
export const fetchStaffInfo = (id: number) => http.get<StaffRow>('/user.merchant_user_sub/info', { id });
export const fetchStaffAuthMenu = (id: number) => http.get<AuthMenu>('/user.merchant_user_sub/authMenu', { id });
export const saveStaffAuthMenu = (id: number, menu_ids: Array<number | string>) =>
  http.post<{ checked: Array<number | string> }>('/user.merchant_user_sub/authMenu', { id, menu_ids });
