import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LoginResult } from '@/api/auth/types';
import i18n from '@/i18n';
import { getToken, saveLogin } from '@/store/session';
import { setFeedback } from '@/utils/feedback';
import { setNavigate } from '@/utils/navigation';
import { storage } from '@/utils/storage';
import { json, mockFetch, ok, spyFeedback } from '@/test/utils';
import { RequestError, download, fileNameFrom, http, request, resetRequestState } from './request';

const login: LoginResult = {
  token: 'tok-1',
  expires_at: Date.now() + 3_600_000,
  remember: false,
  user: {
    id: 1,
    username: 'demo',
    nickname: 'Demo',
    mobile: null,
    kind: 'merchant',
    merchant_id: 1,
    merchant_name: 'Demo Co',
    role: ['merchant'],
    permissions: ['*/*/*'],
    proxy_info: {},
    home_type: 2,
    ai_token: 'ai-123',
    vip: false,
    avatar: '',
  },
};

let feedback: ReturnType<typeof spyFeedback>;
let navigate: ReturnType<typeof vi.fn<(to: string, options?: { replace?: boolean }) => void>>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

beforeEach(() => {
  resetRequestState();
  feedback = spyFeedback();
  navigate = vi.fn<(to: string, options?: { replace?: boolean }) => void>();
  setNavigate(navigate);
  window.history.replaceState(null, '', '/dashboard');
});

afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('request wrapper: what it sends', () => {
  it('returns only the body data', async () => {
    mockFetch(() => ok({ rows: [1, 2], total: 2 }));
    await expect(http.post('/index/log', { page: 1 })).resolves.toEqual({ rows: [1, 2], total: 2 });
  });

  it('prefixes /api and sends token, language and merchant token headers', async () => {
    saveLogin(login);
    const fetch = mockFetch(() => ok({}));
    await http.post('/user.merchant_user_sub/add', { username: 'a' });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/user.merchant_user_sub/add');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-1');
    expect(headers['accept-language']).toBe('zh-cn');
    expect(headers['Ai-Token']).toBe('ai-123');
    expect(init.method).toBe('POST');
    expect(init.body).toBe(JSON.stringify({ username: 'a' }));
  });

  it('sends the stored language as accept-language', async () => {
    storage.set('lang', 'en');
    const fetch = mockFetch(() => ok({}));
    await http.get('/login/index');
    const headers = (fetch.mock.calls[0][1] as RequestInit).headers as Record<string, string>;
    expect(headers['accept-language']).toBe('en');
    expect(headers.Authorization).toBeUndefined();
  });

  it('adds two timestamp params to GET requests (request caching off)', async () => {
    const fetch = mockFetch(() => ok({}));
    await http.get('/index/log', { page: 2, username: 'x' });
    const url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/index/log');
    expect(url.searchParams.get('page')).toBe('2');
    expect(url.searchParams.get('username')).toBe('x');
    expect(url.searchParams.get('_t')).toMatch(/^\d+$/);
    expect(url.searchParams.get('timestamp')).toMatch(/^\d+$/);
  });
});

describe('request wrapper: SPEC §8 error catalogue', () => {
  it('body code 401: clears the session and goes to /login', async () => {
    saveLogin(login);
    mockFetch(() => json({ code: 401, message: 'session revoked', data: null }));
    await expect(http.get('/ajax/initAdmin')).rejects.toMatchObject({ kind: 'session' });
    expect(getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('body code 401 carries the proxyToken query to /login', async () => {
    window.history.replaceState(null, '', '/dashboard?proxyToken=abc');
    mockFetch(() => json({ code: 401, message: '', data: null }));
    await expect(http.get('/ajax/initAdmin')).rejects.toBeInstanceOf(RequestError);
    expect(navigate).toHaveBeenCalledWith('/login?proxyToken=abc', { replace: true });
  });

  it('HTTP 401: one confirm dialog with a re-login button, never two at once', async () => {
    saveLogin(login);
    mockFetch(() => json({ code: 401, message: 'expired' }, 401, 'Unauthorized'));
    await Promise.allSettled([http.get('/a'), http.get('/b'), http.get('/c')]);
    expect(feedback.confirm).toHaveBeenCalledTimes(1);
    const options = feedback.confirm.mock.calls[0][0];
    expect(options.content).toBe(
      'The current user has been logged out or has no permission to access this resource, please log in again',
    );
    expect(options.okText).toBe('Log in again');
    expect(feedback.error).not.toHaveBeenCalled();
    options.onOk();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
    expect(getToken()).toBeNull();
    // once closed, a later 401 may ask again
    await expect(http.get('/d')).rejects.toBeInstanceOf(RequestError);
    expect(feedback.confirm).toHaveBeenCalledTimes(2);
  });

  it('HTTP 401 dialog in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      mockFetch(() => json({ code: 401, message: '' }, 401));
      await expect(http.get('/a')).rejects.toBeInstanceOf(RequestError);
      expect(feedback.confirm.mock.calls[0][0].content).toBe('当前用户已被登出或无权限访问当前资源，请尝试重新登录后再操作。');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('HTTP 403: toast with the server message', async () => {
    mockFetch(() => json({ code: 403, message: 'no permission: user/merchant_user_sub/list' }, 403, 'Forbidden'));
    const error = await http.get('/user.merchant_user_sub/list').catch((e: unknown) => e);
    expect(error).toMatchObject({ kind: 'http', status: 403, statusText: 'Forbidden' });
    expect(feedback.error).toHaveBeenCalledWith('no permission: user/merchant_user_sub/list');
  });

  it('HTTP 403 in zh-CN: the status text is Chinese too, never the English reason phrase', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      mockFetch(() => json({ code: 403, message: '您没有「员工账号」的权限，请联系企业管理员开通' }, 403, 'Forbidden'));
      const error = await http.get('/user.merchant_user_sub/list').catch((e: unknown) => e);
      expect(error).toMatchObject({ kind: 'http', status: 403, statusText: '无权访问' });
      expect(feedback.error).toHaveBeenCalledWith('您没有「员工账号」的权限，请联系企业管理员开通');
      mockFetch(() => new Response('', { status: 502 }));
      await expect(http.get('/x')).rejects.toMatchObject({ statusText: '网关错误' });
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('HTTP 403 VIP: toast with the membership message', async () => {
    mockFetch(() =>
      json({ code: 403, message: 'This function is a membership function, please recharge VIP' }, 403),
    );
    await expect(http.get('/x')).rejects.toBeInstanceOf(RequestError);
    expect(feedback.error).toHaveBeenCalledWith('This function is a membership function, please recharge VIP');
  });

  it('HTTP 404: fixed toast', async () => {
    mockFetch(() => json({ code: 404, message: 'staff not found' }, 404));
    await expect(http.get('/user.merchant_user_sub/info', { id: 9 })).rejects.toMatchObject({ status: 404 });
    expect(feedback.error).toHaveBeenCalledWith('Status:404, requesting a server record that does not exist!');
  });

  it('HTTP 404 in Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      mockFetch(() => new Response('', { status: 404 }));
      await expect(http.get('/x')).rejects.toBeInstanceOf(RequestError);
      expect(feedback.error).toHaveBeenCalledWith('状态:404，请求的服务器记录不存在！');
    } finally {
      await i18n.changeLanguage('en');
    }
  });

  it('HTTP 422: toast with the server message and reject with the field', async () => {
    mockFetch(() => json({ code: 422, message: 'password: at least 8 characters', data: { field: 'password' } }, 422));
    const error = (await http.post('/login/register', {}).catch((e: unknown) => e)) as RequestError;
    expect(error).toBeInstanceOf(RequestError);
    expect(error.field).toBe('password');
    expect(error.message).toBe('password: at least 8 characters');
    expect(feedback.error).toHaveBeenCalledWith('password: at least 8 characters');
  });

  it('HTTP 500: server message, else the fixed text', async () => {
    mockFetch(() => json({ code: 500, message: 'Internal error (request abc)' }, 500));
    await expect(http.get('/x')).rejects.toBeInstanceOf(RequestError);
    expect(feedback.error).toHaveBeenLastCalledWith('Internal error (request abc)');
    mockFetch(() => new Response('oops', { status: 500 }));
    await expect(http.get('/x')).rejects.toBeInstanceOf(RequestError);
    expect(feedback.error).toHaveBeenLastCalledWith('Status:500, server error!');
  });

  it('other HTTP status: server message, else unknown error with the code', async () => {
    mockFetch(() => json({ code: 429, message: 'Locked until 12:15' }, 429));
    await expect(http.post('/login/auth', {})).rejects.toBeInstanceOf(RequestError);
    expect(feedback.error).toHaveBeenLastCalledWith('Locked until 12:15');
    mockFetch(() => new Response('', { status: 418 }));
    await expect(http.get('/x')).rejects.toBeInstanceOf(RequestError);
    expect(feedback.error).toHaveBeenLastCalledWith('Status:418, unknown error!');
  });

  it('no response: network failure', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(http.get('/x')).rejects.toMatchObject({ kind: 'network' });
    expect(feedback.error).toHaveBeenCalledWith('Request server did not respond!');
  });

  it('no response: timeout aborts the request', async () => {
    mockFetch(
      (_url, init) =>
        new Promise<Response>((_resolve, reject) => {
          init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
        }),
    );
    await expect(request({ url: '/slow', timeout: 20 })).rejects.toMatchObject({ kind: 'timeout' });
    expect(feedback.error).toHaveBeenCalledWith('Request server did not respond!');
  });

  it('uses a 60 s timeout by default', async () => {
    vi.useFakeTimers();
    try {
      mockFetch(
        (_url, init) =>
          new Promise<Response>((_resolve, reject) => {
            init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
          }),
      );
      const pending = http.get('/slow').catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(59_999);
      expect(feedback.error).not.toHaveBeenCalled();
      await vi.advanceTimersByTimeAsync(2);
      expect(await pending).toMatchObject({ kind: 'timeout' });
    } finally {
      vi.useRealTimers();
    }
  });

  it('body code other than 200: toast the message', async () => {
    mockFetch(() => json({ code: 1001, message: 'points not enough', data: null }));
    await expect(http.post('/x')).rejects.toMatchObject({ kind: 'business', code: 1001 });
    expect(feedback.error).toHaveBeenCalledWith('points not enough');
  });

  it('unparseable body: data format error', async () => {
    mockFetch(() => new Response('<html>', { status: 200 }));
    await expect(http.get('/x')).rejects.toMatchObject({ kind: 'format' });
    expect(feedback.error).toHaveBeenCalledWith('data format error');
  });

  it('silent requests do not toast', async () => {
    mockFetch(() => json({ code: 500, message: 'x' }, 500));
    await expect(request({ url: '/x', silent: true })).rejects.toBeInstanceOf(RequestError);
    expect(feedback.error).not.toHaveBeenCalled();
  });
});

describe('download helper (exports)', () => {
  let saved: { href: string; name: string }[];
  let blobs: Blob[];
  beforeEach(() => {
    saved = [];
    blobs = [];
    vi.stubGlobal(
      'URL',
      Object.assign(URL, {
        createObjectURL: vi.fn((b: Blob) => {
          blobs.push(b);
          return `blob:${blobs.length}`;
        }),
        revokeObjectURL: vi.fn(),
      }),
    );
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      saved.push({ href: this.getAttribute('href') ?? '', name: this.download });
    });
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  const file = (body: string, headers: Record<string, string>) => new Response(body, { status: 200, headers });

  it('reads the file name from Content-Disposition, RFC 5987 filename* first', () => {
    expect(fileNameFrom('attachment; filename="draws.xlsx"', 'x')).toBe('draws.xlsx');
    expect(fileNameFrom('attachment; filename=draws.csv', 'x')).toBe('draws.csv');
    expect(fileNameFrom(`attachment; filename="draws.xlsx"; filename*=UTF-8''%E6%8A%BD%E5%A5%96%E8%AE%B0%E5%BD%95.xlsx`, 'x')).toBe('抽奖记录.xlsx');
    expect(fileNameFrom(`attachment; filename*=utf-8'zh'%E5%88%B8%20list.csv`, 'x')).toBe('券 list.csv');
    expect(fileNameFrom(`attachment; filename*=ISO-8859-1''caf%E9.csv`, 'x')).toBe('café.csv');
    expect(fileNameFrom('attachment; filename="a \\"b\\".csv"', 'x')).toBe('a "b".csv');
    expect(fileNameFrom('attachment; filename="../../etc/passwd"', 'x')).toBe('passwd');
    expect(fileNameFrom('attachment', 'fallback.xlsx')).toBe('fallback.xlsx');
    expect(fileNameFrom(null, 'fallback.xlsx')).toBe('fallback.xlsx');
  });

  it('GETs with the token and language headers and the params, then saves the blob under the server\'s name', async () => {
    saveLogin(login);
    storage.set('lang', 'en');
    const fetch = mockFetch(() =>
      file('a,b\n1,2\n', { 'content-type': 'text/csv', 'content-disposition': `attachment; filename="x.csv"; filename*=UTF-8''%E5%88%B8.csv` }),
    );
    const result = await download('/task.merchant_forward_task_activities/export_coupons', { format: 'csv', activity_id: 3, filterObj: { state: 'issued|=' } }, 'coupons.csv');
    expect(result).toEqual({ name: '券.csv', size: 8 });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    const u = new URL(url, 'http://localhost');
    expect(u.pathname).toBe('/api/task.merchant_forward_task_activities/export_coupons');
    expect(u.searchParams.get('format')).toBe('csv');
    expect(u.searchParams.get('activity_id')).toBe('3');
    expect(JSON.parse(u.searchParams.get('filterObj') ?? '')).toEqual({ state: 'issued|=' });
    expect(init.method).toBe('GET');
    const headers = init.headers as Record<string, string>;
    expect(headers.Authorization).toBe('Bearer tok-1');
    expect(headers['accept-language']).toBe('en');
    expect(saved).toEqual([{ href: 'blob:1', name: '券.csv' }]);
    expect(await blobs[0].text()).toBe('a,b\n1,2\n');
    expect(document.querySelector('a[download]')).toBeNull();
  });

  it('falls back to the given name when the server names none', async () => {
    mockFetch(() => file('xx', { 'content-type': 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' }));
    await expect(download('/x', { format: 'xlsx' }, 'draws.xlsx')).resolves.toEqual({ name: 'draws.xlsx', size: 2 });
    expect(saved.map((s) => s.name)).toEqual(['draws.xlsx']);
  });

  it('a JSON error envelope in place of the file raises the RequestError of any call, and saves nothing', async () => {
    mockFetch(() => json({ code: 422, message: 'format: xlsx or csv', data: { field: 'format' } }, 422));
    const error = (await download('/x', { format: 'pdf' }, 'a.pdf').catch((e: unknown) => e)) as RequestError;
    expect(error).toBeInstanceOf(RequestError);
    expect(error).toMatchObject({ kind: 'http', status: 422, message: 'format: xlsx or csv' });
    expect(error.field).toBe('format');
    expect(feedback.error).toHaveBeenCalledWith('format: xlsx or csv');

    mockFetch(() => json({ code: 403, message: 'no permission' }, 403));
    await expect(download('/x', {}, 'a.csv', { silent: true })).rejects.toMatchObject({ kind: 'http', status: 403 });
    expect(feedback.error).toHaveBeenCalledTimes(1);

    mockFetch(() => json({ code: 1001, message: 'nothing to export', data: null }));
    await expect(download('/x', {}, 'a.csv')).rejects.toMatchObject({ kind: 'business', code: 1001 });
    expect(feedback.error).toHaveBeenLastCalledWith('nothing to export');

    mockFetch(() => json({ code: 200, message: 'ok', data: {} }));
    await expect(download('/x', {}, 'a.csv')).rejects.toMatchObject({ kind: 'format' });
    expect(saved).toEqual([]);
  });

  it('an expired session in place of the file signs out like any call', async () => {
    saveLogin(login);
    mockFetch(() => json({ code: 401, message: 'session revoked', data: null }));
    await expect(download('/x', {}, 'a.csv')).rejects.toMatchObject({ kind: 'session' });
    expect(getToken()).toBeNull();
    expect(navigate).toHaveBeenCalledWith('/login', { replace: true });
  });

  it('no response: the network error of any call', async () => {
    mockFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(download('/x', {}, 'a.csv')).rejects.toMatchObject({ kind: 'network' });
    expect(feedback.error).toHaveBeenCalledWith('Request server did not respond!');
  });
});
