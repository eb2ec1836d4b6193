import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { addActivity, deleteActivity, editActivity, exportCoupons, exportDraws, fetchActivities, fetchActivity, fetchCoupons, redeemCoupon } from '.';
import type { ActivityReq } from './types';

let calls: { method: string; path: string; query: Record<string, string>; body: unknown }[];
let saved: string[];
beforeEach(() => {
  calls = [];
  saved = [];
  spyFeedback();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    saved.push(this.download);
  });
  mockFetch((url, init) => {
    const query = Object.fromEntries([...url.searchParams].filter(([k]) => k !== '_t' && k !== 'timestamp'));
    calls.push({ method: init.method ?? 'GET', path: url.pathname.replace('/api', ''), query, body: init.body ? JSON.parse(String(init.body)) : undefined });
    if (url.pathname.includes('/export_')) return new Response('x', { status: 200, headers: { 'content-type': 'text/csv' } });
    return ok({});
  });
});
afterEach(() => {
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setFeedback(null);
});

const req: ActivityReq = {
  name: 'Spring',
  starts_at: Date.UTC(2030, 0, 1),
  ends_at: Date.UTC(2030, 0, 31),
  who: 'anyone',
  per_person: 3,
  per_day: 1,
  color: '#E53935',
  rules_text: '',
  prizes: [{ name: '10 off', kind: 'coupon', odds: 10, stock: 100, per_person: 1, per_day: 1, description: '', valid_days: 30 }],
};

describe('activity calls', () => {
  it('post to task.merchant_forward_task_activities/*; edit sends the id with the body', async () => {
    await fetchActivities();
    await fetchActivity(4);
    await addActivity(req);
    await editActivity(4, req);
    await deleteActivity(4);
    expect(calls.map((c) => [`${c.method} ${c.path}`, c.body])).toEqual([
      ['POST /task.merchant_forward_task_activities/index', { limit: 1000 }],
      ['POST /task.merchant_forward_task_activities/info', { id: 4 }],
      ['POST /task.merchant_forward_task_activities/add', req],
      ['POST /task.merchant_forward_task_activities/edit', { ...req, id: 4 }],
      ['POST /task.merchant_forward_task_activities/delete', { id: 4 }],
    ]);
  });

  it('list coupons and redeem a trimmed code', async () => {
    await fetchCoupons({ activity_id: 2, state: 'issued' });
    await redeemCoupon('  AB12CD34 ');
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/task.merchant_forward_task_activities/coupons', { activity_id: 2, state: 'issued' }],
      ['/task.merchant_forward_task_activities/redeem', { code: 'AB12CD34' }],
    ]);
  });

  it('export by GET with the format and the list filters (empty ones left out), saved under a fallback name', async () => {
    await exportDraws('xlsx', { activity_id: 2, filterObj: { won: '1|=' } });
    await exportCoupons('csv', { activity_id: undefined, code: '', filterObj: {} });
    expect(calls.map((c) => [`${c.method} ${c.path}`, c.query])).toEqual([
      ['GET /task.merchant_forward_task_activities/export_draws', { format: 'xlsx', activity_id: '2', filterObj: JSON.stringify({ won: '1|=' }) }],
      ['GET /task.merchant_forward_task_activities/export_coupons', { format: 'csv' }],
    ]);
    expect(saved).toEqual(['draws.xlsx', 'coupons.csv']);
  });
});
