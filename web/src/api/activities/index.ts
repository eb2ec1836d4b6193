/**
 * Lottery activities (docs/api-activities.md): the activities with their prizes, their coupons and the
 * redeem desk, the draw log and the exports. Lists are read by DataTable through `activityUrls`; the
 * other calls are POSTs, the exports GET downloads (`download` of the request wrapper).
 */
import { api, narrowed } from '../client';
import { download } from '../request';
import type { ListResult } from '../types';
import type { Activity, ActivityReq, Coupon, ExportFilters, ExportFormat } from './types';

const A = '/task.merchant_forward_task_activities';

export const activityUrls = {
  index: `${A}/index`,
  coupons: `${A}/coupons`,
  draws: '/task.merchant_forward_task/get_task_luck_draw_log',
  exportDraws: `${A}/export_draws`,
  exportCoupons: `${A}/export_coupons`,
} as const;

/** The area's query keys: a write marks the reads under them stale (`useWrite`). */
export const activitiesKeys = {
  all: ['activities'] as const,
  /** Every activity as picker options. */
  options: ['activities', 'options'] as const,
};

type Empty = Record<string, never>;
const PICK_LIMIT = 1000;
/** Exports of long lists take longer than a call. */
export const EXPORT_TIMEOUT_MS = 5 * 60_000;

/** Every activity (pickers); silent: a picker that cannot load shows no options. */
export const fetchActivities = (params: Record<string, unknown> = {}): Promise<ListResult<Activity>> =>
  narrowed(api.post(activityUrls.index, { limit: PICK_LIMIT, ...params }, { silent: true }));
export const fetchActivity = (id: number): Promise<Activity> => narrowed(api.post(`${A}/info`, { id }));
/** Silent: a 422 is shown at its field. */
export const addActivity = (req: ActivityReq): Promise<Activity> => narrowed(api.post(`${A}/add`, req, { silent: true }));
/** Silent: a 422 is shown at its field (`prizes` when a prize that issued coupons is removed or cut below `issued`). */
export const editActivity = (id: number, req: ActivityReq): Promise<Activity> => narrowed(api.post(`${A}/edit`, { ...req, id }, { silent: true }));
/** Its coupons stay redeemable; the public page says the activity has ended. */
export const deleteActivity = (id: number): Promise<Empty> => api.post(`${A}/delete`, { id });

export const fetchCoupons = (params: Record<string, unknown> = {}): Promise<ListResult<Coupon>> => narrowed(api.post(activityUrls.coupons, params));
/** Silent: a 422 `code` (unknown, already redeemed, expired) is shown under the code field. */
export const redeemCoupon = (code: string): Promise<Coupon> => api.post(`${A}/redeem`, { code: code.trim() }, { silent: true });

function exportParams(format: ExportFormat, filters: ExportFilters): Record<string, unknown> {
  const params: Record<string, unknown> = { format };
  for (const [k, v] of Object.entries(filters)) {
    if (v === undefined || v === null || v === '') continue;
    if (k === 'filterObj' && !Object.keys(v as object).length) continue;
    params[k] = v;
  }
  return params;
}

/** Downloads the draw log with the list's filters (`draws.xlsx` unless the server names the file). */
export const exportDraws = (format: ExportFormat, filters: ExportFilters = {}) =>
  download(activityUrls.exportDraws, exportParams(format, filters), `draws.${format}`, { timeout: EXPORT_TIMEOUT_MS });
/** Downloads the coupons with the list's filters. */
export const exportCoupons = (format: ExportFormat, filters: ExportFilters = {}) =>
  download(activityUrls.exportCoupons, exportParams(format, filters), `coupons.${format}`, { timeout: EXPORT_TIMEOUT_MS });
