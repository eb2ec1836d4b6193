import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { deleteAccounts, fetchForwardConfig, pollQrLogin, publishNow, rescheduleTask, startAuthorize, submitTask } from '.';
import type { TaskReq } from './types';

let calls: { method: string; path: string; body: unknown }[];
beforeEach(() => {
  calls = [];
  spyFeedback();
  mockFetch((url, init) => {
    calls.push({ method: init.method ?? 'GET', path: url.pathname.replace('/api', ''), body: init.body ? JSON.parse(String(init.body)) : undefined });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const req = { name: 'n' } as TaskReq;

describe('matrix calls', () => {
  it('send a task to the platform\'s *_add (shop = bp_), mixed ones to createCommonPublishTask', async () => {
    await submitTask('dy', req);
    await submitTask('shop', req);
    await submitTask('mixed', req);
    await fetchForwardConfig('shop');
    expect(calls.map((c) => `${c.method} ${c.path}`)).toEqual([
      'POST /task.merchant_forward_task/dy_add',
      'POST /task.merchant_forward_task/bp_add',
      'POST /matrix.merchant_publish_management/createCommonPublishTask',
      'POST /task.merchant_forward_task/bp_forward_config',
    ]);
    expect(calls[0].body).toEqual({ name: 'n' });
  });

  it('session platforms publish and reschedule through the external_* calls', async () => {
    await publishNow({ id: 1 }, 'xhs');
    await publishNow({ task_id: 2 }, 'dy');
    await rescheduleTask({ id: 3, time_mode: 'timed', start_date: '2030-01-01', daily_quantity: 1, days: 1, times: ['09:00'] }, 'sph');
    await rescheduleTask({ id: 3, time_mode: 'random', start_date: '2030-01-01', daily_quantity: 1, days: 1, times: [] }, 'ks');
    expect(calls.map((c) => c.path)).toEqual([
      '/task.merchant_forward_task/external_release',
      '/task.merchant_forward_task/manual_forward',
      '/task.merchant_forward_task/external_task_time_save',
      '/task.merchant_forward_task/task_time_save',
    ]);
    expect(calls[1].body).toEqual({ task_id: 2 });
  });

  it('QR logins poll per platform; accounts delete one by id or several by ids', async () => {
    await startAuthorize('xhs', 5);
    await pollQrLogin('sph', 'L1');
    await pollQrLogin('xhs', 'L2', '123456');
    await pollQrLogin('shop', 'L3');
    await deleteAccounts([4]);
    await deleteAccounts([4, 5]);
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/task.merchant_group_user/get_qrCode', { platform: 'xhs', group_id: 5 }],
      ['/task.merchant_group_user/sphLogin', { login_id: 'L1' }],
      ['/task.merchant_group_user/xhsLogin', { login_id: 'L2', sms_code: '123456' }],
      ['/task.merchant_group_user/qr_login', { platform: 'shop', login_id: 'L3' }],
      ['/task.merchant_group_user/delete', { id: 4 }],
      ['/task.merchant_group_user/delete', { ids: [4, 5] }],
    ]);
  });
});
