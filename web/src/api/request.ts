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

/** Sends the call (timeout, outer abort) and reads its body with `read`; no response is a RequestError. */
async function send<B>(config: RequestConfig, method: Method, url: string, headers: Record<string, string>, read: (r: Response) => Promise<B>) {
  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, config.timeout ?? REQUEST_TIMEOUT_MS);
  const onOuterAbort = () => controller.abort();
  config.signal?.addEventListener('abort', onOuterAbort);
  try {
    let body: BodyInit | undefined;
    if (method !== 'GET' && config.data !== undefined) {
      body = config.data instanceof FormData ? config.data : JSON.stringify(config.data);
    }
    const response = await fetch(url, { method, headers, body, signal: controller.signal, credentials: 'same-origin' });
    return { response, payload: await read(response) };
  } catch (error) {
    if (config.signal?.aborted && !timedOut) throw new RequestError('aborted', 'aborted');
    const message = t('request.noResponse');
    toast(config, message);
    throw new RequestError(timedOut ? 'timeout' : 'network', message, { data: error });
  } finally {
    clearTimeout(timer);
    config.signal?.removeEventListener('abort', onOuterAbort);
  }
}

function parseEnvelope<T>(text: string): Partial<Envelope<T>> | undefined {
  try {
    return text ? (JSON.parse(text) as Partial<Envelope<T>>) : undefined;
  } catch {
    return undefined;
  }
}

/** The envelope's data, or the error of the catalogue (HTTP status, format, session, business code). */
function unwrap<T>(config: RequestConfig, response: Response, body: Partial<Envelope<T>> | undefined): T {
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

export async function request<T = unknown>(config: RequestConfig): Promise<T> {
  const method = (config.method ?? 'GET').toUpperCase() as Method;
  const url = buildUrl(config.url, method, config.params, config.data);
  const headers = buildHeaders({ ...config, method });
  const { response, payload } = await send(config, method, url, headers, (r) => r.text());
  return unwrap<T>(config, response, parseEnvelope<T>(payload));
}

// ---- file downloads (exports)

/**
 * The file name of a `Content-Disposition` header: RFC 5987 `filename*=UTF-8''…` first, then
 * `filename="…"` / `filename=…`; path parts are dropped. `fallback` when there is none.
 */
export function fileNameFrom(header: string | null | undefined, fallback: string): string {
  const value = header ?? '';
  let name = '';
  const extended = /filename\*\s*=\s*"?([^';"]*)'[^']*'([^;"]+)"?/i.exec(value);
  if (extended) {
    const [, charset, encoded] = extended;
    try {
      name = /^utf-?8$/i.test(charset) || !charset
        ? decodeURIComponent(encoded)
        : encoded.replace(/%([0-9a-f]{2})/gi, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    } catch {
      name = encoded;
    }
  }
  if (!name) {
    const quoted = /filename\s*=\s*"((?:\\.|[^"\\])*)"/i.exec(value);
    const bare = /filename\s*=\s*([^;\s"]+)/i.exec(value);
    if (quoted) name = quoted[1].replace(/\\(.)/g, '$1');
    else if (bare) name = bare[1];
  }
  name = name.split(/[\\/]/).pop()?.trim() ?? '';
  return name || fallback;
}

/** Hands a blob to the browser as a file download (an `<a download>` clicked once). */
export function saveBlob(blob: Blob, name: string): void {
  const href = URL.createObjectURL(blob);
  const a = document.createElement('a');
  a.href = href;
  a.download = name;
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
    // some browsers read the blob after click() returns
    setTimeout(() => URL.revokeObjectURL(href), 1000);
  }
}

/**
 * Downloads what a signed link names (a finished video, a zip of several): the browser fetches it
 * itself and writes it to disk as it arrives, so nothing is held in the page's memory.
 */
export function saveLink(href: string): void {
  const a = document.createElement('a');
  a.href = href;
  a.download = '';
  a.rel = 'noopener';
  a.style.display = 'none';
  document.body.appendChild(a);
  try {
    a.click();
  } finally {
    a.remove();
  }
}

export interface DownloadOptions {
  silent?: boolean;
  signal?: AbortSignal;
  /** Default: the request timeout (exports of big lists may want more). */
  timeout?: number;
}

/**
 * Downloads a file by GET with the headers of every call (token, language) and saves it under the
 * name of its `Content-Disposition` (else `fallbackName`). A JSON envelope in place of the file (an
 * error, a refused permission, an expired session) raises the same RequestError as `request`.
 */
export async function download(
  url: string,
  params?: Record<string, unknown>,
  fallbackName = 'download',
  options: DownloadOptions = {},
): Promise<{ name: string; size: number }> {
  const config: RequestConfig = { ...options, url, method: 'GET', params };
  const target = buildUrl(url, 'GET', params);
  const headers = { ...buildHeaders(config), accept: '*/*' };
  const { response, payload: blob } = await send(config, 'GET', target, headers, (r) => r.blob());
  const disposition = response.headers.get('content-disposition');
  const type = response.headers.get('content-type') ?? '';
  const isFile = response.ok && (/attachment/i.test(disposition ?? '') || !/json/i.test(type));
  if (!isFile) {
    const body = parseEnvelope<unknown>(await blob.text());
    unwrap(config, response, body);
    // a success envelope is no file either
    const message = t('request.formatError');
    toast(config, message);
    throw new RequestError('format', message, { status: response.status, statusText: response.statusText });
  }
  const name = fileNameFrom(disposition, fallbackName);
  saveBlob(blob, name);
  return { name, size: blob.size };
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
