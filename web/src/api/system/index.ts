/** Operator calls (/system/*, role Administrator only). */
import type { MenuNode } from '../auth/types';
import { http } from '../request';
import type { DicOption, DicRow, MenuEditBody, MerchantRow, RoleRow, TaskRow } from './types';

export const systemUrls = {
  merchants: '/system/merchant/index',
  users: '/system/user/index',
  roles: '/system/role/index',
  menus: '/system/menu/index',
  log: '/system/log/index',
  tasks: '/system/tasks/index',
  dics: '/system/dic/index',
} as const;

export const addMerchant = (body: { name: string; username: string; password: string; mobile?: string }) =>
  http.post<MerchantRow>('/system/merchant/add', body);
export const editMerchant = (body: { id: number; name?: string; mobile?: string; vip_expires_at?: number | null; home_type?: number }) =>
  http.post<MerchantRow>('/system/merchant/edit', body);
export const setMerchantStatus = (id: number, status: 1 | 0) => http.post<MerchantRow>('/system/merchant/status', { id, status });
export const resetMerchantPassword = (id: number, password: string) =>
  http.post<Record<string, never>>('/system/merchant/resetPassword', { id, password });
export const topupMerchant = (id: number, points: number, reason?: string) =>
  http.post<{ balance: number }>('/system/merchant/topup', { id, points, reason });
export const merchantProxyToken = (id: number) =>
  http.post<{ proxyToken: string; url: string }>('/system/merchant/proxyToken', { id });

export const addRole = (body: { name: string; permissions: string[] }) => http.post<RoleRow>('/system/role/add', body);
export const editRole = (body: { id: number; name: string; permissions: string[] }) => http.post<RoleRow>('/system/role/edit', body);
export const deleteRole = (id: number) => http.post<Record<string, never>>('/system/role/delete', { id });

export const fetchMenuTree = () => http.get<MenuNode[]>(systemUrls.menus);
export const editMenu = (body: MenuEditBody) => http.post<MenuNode>('/system/menu/edit', body);

export const retryTask = (id: number) => http.post<TaskRow>('/system/tasks/retry', { id });

/** Creates or replaces the dictionary `name` (labels may be bilingual '中文 / English'). */
export const saveDic = (body: { name: string; title: string; options: DicOption[] }) => http.post<DicRow>('/system/dic/save', body);
export const deleteDic = (id: number) => http.post<Record<string, never>>('/system/dic/delete', { id });
