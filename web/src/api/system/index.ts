/** Operator calls (/system/*, role Administrator only). */
import type { MenuNode } from '../auth/types';
import { api, type Body } from '../client';
import type { DicRow, MenuEditBody, MerchantRow, RoleRow, SmsGateway, SmsGatewayReq, SmsTestView, TaskRow } from './types';

export const systemUrls = {
  merchants: '/system/merchant/index',
  users: '/system/user/index',
  roles: '/system/role/index',
  menus: '/system/menu/index',
  log: '/system/log/index',
  tasks: '/system/tasks/index',
  dics: '/system/dic/index',
} as const;

/** The area's query keys: a write marks the area stale (`useWrite`), so the tables on screen read again. */
export const systemKeys = {
  all: ['system'] as const,
  /** One dictionary's options, as every dictionary select reads them (`DictSelect`). */
  dic: (name: string | undefined) => ['dic', name] as const,
  /** The SMS gateway (`/system/sms`). */
  sms: ['system', 'sms'] as const,
  /** A merchant's banned words (System → Merchants → Banned words). */
  bannedWords: (merchantId: number | undefined) => ['system', 'bannedWords', merchantId] as const,
};

export const fetchSmsGateway = (): Promise<SmsGateway> => api.get('/system/sms/index');
export const saveSmsGateway = (body: SmsGatewayReq): Promise<SmsGateway> => api.post('/system/sms/save', body, { silent: true });
export const testSmsGateway = (mobile: string): Promise<SmsTestView> => api.post('/system/sms/test', { mobile }, { silent: true });

export const addMerchant = (body: Body<'/system/merchant/add'>): Promise<MerchantRow> =>
  api.post('/system/merchant/add', body);
export const editMerchant = (body: Body<'/system/merchant/edit'>): Promise<MerchantRow> =>
  api.post('/system/merchant/edit', body);
export const setMerchantStatus = (id: number, status: 1 | 0): Promise<MerchantRow> => api.post('/system/merchant/status', { id, status });
export const resetMerchantPassword = (id: number, password: string): Promise<Record<string, never>> =>
  api.post('/system/merchant/resetPassword', { id, password });
export const topupMerchant = (id: number, points: number, reason?: string): Promise<{ balance: number }> =>
  api.post('/system/merchant/topup', { id, points, reason });
export const merchantProxyToken = (id: number): Promise<{ proxyToken: string; url: string }> =>
  api.post('/system/merchant/proxyToken', { id });
/** The words the operator bans for one merchant: the copy precheck blocks them in its posts. */
export const merchantBannedWords = (merchantId: number) => api.get('/system/merchant/banned_words_index', { merchant_id: merchantId });
export const addMerchantBannedWords = (merchantId: number, words: string[]) => api.post('/system/merchant/banned_words_add', { merchant_id: merchantId, words });
export const deleteMerchantBannedWords = (merchantId: number, ids: number[]) => api.post('/system/merchant/banned_words_delete', { merchant_id: merchantId, ids });

export const addRole = (body: Body<'/system/role/add'>): Promise<RoleRow> => api.post('/system/role/add', body);
export const editRole = (body: Body<'/system/role/edit'>): Promise<RoleRow> => api.post('/system/role/edit', body);
export const deleteRole = (id: number): Promise<Record<string, never>> => api.post('/system/role/delete', { id });

export const fetchMenuTree = (): Promise<MenuNode[]> => api.get(systemUrls.menus);
export const editMenu = (body: MenuEditBody): Promise<MenuNode> => api.post('/system/menu/edit', body);

export const retryTask = (id: number): Promise<TaskRow> => api.post('/system/tasks/retry', { id });

/** Creates or replaces the dictionary `name` (labels may be bilingual '中文 / English'). */
export const saveDic = (body: Body<'/system/dic/save'>): Promise<DicRow> => api.post('/system/dic/save', body);
export const deleteDic = (id: number): Promise<Record<string, never>> => api.post('/system/dic/delete', { id });
