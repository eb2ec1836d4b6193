/**
 * The one request wrapper (SPEC §7 headers, SPEC §8 error catalogue). Every call goes through it and
 * resolves with the body's `data` only.
 */
import { API_BASE, REQUEST_CACHE, REQUEST_TIMEOUT_MS, SUCCESS_CODE } from '@/config';
import i18n, { acceptLanguage } from '@/i18n';
import { clearSession, getAiToken, getToken } from '@/store/session';
import { feedback } from '@/utils/feedback';
import { loginPath, navigate } from '@/utils/navigation';
import type { Envelope } from './types';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface RequestConfig {
  url: string;
  method?: Method;
  /** Query string parameters (any method). */
  params?: Record<string, unknown>;
  /** JSON body (or FormData); for GET it is merged into the query string. */
  data?: unknown;
  headers?: Record<string, string>;
  timeout?: number;
  /** Do not toast; the caller shows the error itself. Session handling (401) still happens. */
  silent?: boolean;
  signal?: AbortSignal;
}

export type RequestErrorKind = 'http' | 'business' | 'session' | 'network' | 'timeout' | 'format' | 'aborted';

export class RequestError extends Error {
  readonly kind: RequestErrorKind;
  readonly status?: number;
  readonly statusText?: string;
  readonly code?: number;
  readonly data?: unknown;

  constructor(
    kind: RequestErrorKind,
    message: string,
    extra: { status?: number; statusText?: string; code?: number; data?: unknown } = {},
  ) {
    super(message);
    this.name = 'RequestError';
    this.kind = kind;
    Object.assign(this, extra);
  }

  /** Field named by a 422 answer (`data.field`), when there is one. */
  get field(): string | undefined {
    const data = this.data as { field?: unknown } | undefined;
    return typeof data?.field === 'string' ? data.field : undefined;
  }
}

const t = (key: string, options?: Record<string, unknown>) => i18n.t(key, { ns: 'common', ...options });

let reloginDialogOpen = false;
let lastRevokedToastAt = 0;

/** Test hook: forget the one-time dialog state. */
export function resetRequestState(): void {
  reloginDialogOpen = false;
  lastRevokedToastAt = 0;
}

function showReloginDialog(): void {
  if (reloginDialogOpen) return;
  reloginDialogOpen = true;
  feedback.confirm({
    title: t('request.reloginTitle'),
    content: t('request.unauthorized'),
    okText: t('request.relogin'),
    cancelText: t('cancel'),
    onOk: () => {
      reloginDialogOpen = false;
      clearSession();
      navigate(loginPath(), { replace: true });
    },
    onCancel: () => {
      reloginDialogOpen = false;
    },
  });
}

function sessionRevoked(message: string): void {
  clearSession();
  const now = Date.now();
  if (message && now - lastRevokedToastAt > 2000) feedback.warning(message);
  lastRevokedToastAt = now;
  if (window.location.pathname !== '/login') navigate(loginPath(), { replace: true });
}

function appendQuery(search: URLSearchParams, params: Record<string, unknown> | undefined): void {
  if (!params) return;
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined || value === null) continue;
    if (Array.isArray(value)) value.forEach((v) => search.append(key, String(v)));
    else if (typeof value === 'object') search.append(key, JSON.stringify(value));
    else search.append(key, String(value));
  }
}

export function buildUrl(url: string, method: Method, params?: Record<string, unknown>, data?: unknown): string {
  const absolute = /^https?:\/\//.test(url);
  const target = new URL(absolute ? url : `${API_BASE}${url.startsWith('/') ? '' : '/'}${url}`, window.location.origin);
  appendQuery(target.searchParams, params);
  if (method === 'GET') {
    if (data && typeof data === 'object' && !(data instanceof FormData)) appendQuery(target.searchParams, data as Record<string, unknown>);
    if (!REQUEST_CACHE) {
      const now = String(Date.now());
      target.searchParams.set('_t', now);
      target.searchParams.set('timestamp', now);
    }
  }
  return absolute ? target.toString() : `${target.pathname}${target.search}`;
}

export function buildHeaders(config: RequestConfig): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', 'accept-language': acceptLanguage() };
  const token = getToken();
  if (token) {
    headers.Authorization = `Bearer ${token}`;
    headers['Ai-Token'] = getAiToken();
  }
  if (config.data !== undefined && !(config.data instanceof FormData) && (config.method ?? 'GET') !== 'GET') {
    headers['content-type'] = 'application/json';
  }
  return { ...headers, ...config.headers };
}

function toast(config: RequestConfig, text: string): void {
  if (!config.silent) feedback.error(text);
}

/** The reason phrase of an HTTP status in the console's language (the browser's is English). */
export function statusLabel(status: number, statusText = ''): string {
  const key = `request.status.${status}`;
  return i18n.exists(key, { ns: 'common' }) ? t(key) : statusText;
}

function httpError(config: RequestConfig, status: number, statusText: string, body: Partial<Envelope> | undefined): RequestError {
  const serverMessage = typeof body?.message === 'string' ? body.message : '';
  const extra = { status, statusText: statusLabel(status, statusText), code: typeof body?.code === 'number' ? body.code : status, data: body?.data };
  let text: string;
  switch (status) {
    case 401:
      showReloginDialog();
      return new RequestError('http', serverMessage || t('request.unauthorized'), extra);
    case 403:
      text = serverMessage || t('request.forbidden');
      break;
    case 404:
      text = t('request.notFound');
      break;
    case 422:
      text = serverMessage || t('request.invalid');
      break;
    case 500:
      text = serverMessage || t('request.serverError');
      break;
    default:
      text = serverMessage || t('request.unknown', { code: status });
  }
  toast(config, text);
  return new RequestError('http', text, extra);
}

export async function request<T = unknown>(config: RequestConfig): Promise<T> {
  const method = (config.method ?? 'GET').toUpperCase() as Method;
  const url = buildUrl(config.url, method, config.params, config.data);
  const headers = buildHeaders({ ...config, method });
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeout ?? REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  config.signal?.addEventListener('abort', onOuterAbort);

  let response: Response;
  let text: string;
  try {
    let body: BodyInit | undefined;
    if (method !== 'GET' && config.data !== undefined) {
      body = config.data instanceof FormData ? config.data : JSON.stringify(config.data);
    }
    response = await fetch(url, { method, headers, body, signal: controller.signal, credentials: 'same-origin' });
    text = await response.text();
  } catch (error) {
    if (config.signal?.aborted && !timedOut) throw new RequestError('aborted', 'aborted');
    const message = t('request.noResponse');
    toast(config, message);
    throw new RequestError(timedOut ? 'timeout' : 'network', message, { data: error });
  } finally {
    clearTimeout(timer);
    config.signal?.removeEventListener('abort', onOuterAbort);
  }

  let body: Partial<Envelope<T>> | undefined;
  try {
    body = text ? (JSON.parse(text) as Partial<Envelope<T>>) : undefined;
  } catch {
    body = undefined;
  }

  if (!response.ok) throw httpError(config, response.status, response.statusText, body);

  if (!body || typeof body !== 'object' || typeof body.code !== 'number') {
    const message = t('request.formatError');
    toast(config, message);
    throw new RequestError('format', message, { status: response.status, statusText: response.statusText });
  }
  if (body.code === 401) {
    sessionRevoked(body.message ?? '');
    throw new RequestError('session', body.message || t('request.unauthorized'), { status: response.status, code: 401 });
  }
  if (body.code !== SUCCESS_CODE) {
    const message = body.message || t('request.unknown', { code: body.code });
    toast(config, message);
    throw new RequestError('business', message, { status: response.status, code: body.code, data: body.data });
  }
  return body.data as T;
}

type Options = Omit<RequestConfig, 'url' | 'method' | 'data' | 'params'>;

export const http = {
  get: <T>(url: string, params?: Record<string, unknown>, options?: Options) =>
    request<T>({ ...options, url, method: 'GET', params }),
  post: <T>(url: string, data?: unknown, options?: Options & { params?: Record<string, unknown> }) =>
    request<T>({ ...options, url, method: 'POST', data }),
  put: <T>(url: string, data?: unknown, options?: Options) => request<T>({ ...options, url, method: 'PUT', data }),
  patch: <T>(url: string, data?: unknown, options?: Options) => request<T>({ ...options, url, method: 'PATCH', data }),
  delete: <T>(url: string, params?: Record<string, unknown>, options?: Options) =>
    request<T>({ ...options, url, method: 'DELETE', params }),
};
