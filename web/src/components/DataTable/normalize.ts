import { RequestError } from '@/api/request';

export interface NormalizedList<T> {
  rows: T[];
  total: number;
  /** The server stopped counting: `total` is a lower bound (shown as "10,000+"); paging still works. */
  capped?: boolean;
  summary?: Record<string, number>;
}

/**
 * Accepts `{rows,total,summary}`, `{data,count}` (read from data.data, otherwise data) or a bare array;
 * anything else is a format error (null).
 */
export function normalizeList<T>(data: unknown): NormalizedList<T> | null {
  if (Array.isArray(data)) return { rows: data as T[], total: data.length };
  if (!data || typeof data !== 'object') return null;
  const obj = data as Record<string, unknown>;
  if (Array.isArray(obj.rows)) {
    const total = Number(obj.total ?? obj.count ?? obj.rows.length);
    return {
      rows: obj.rows as T[],
      total: Number.isFinite(total) ? total : obj.rows.length,
      ...(obj.total_capped === true ? { capped: true } : {}),
      summary: obj.summary && typeof obj.summary === 'object' ? (obj.summary as Record<string, number>) : undefined,
    };
  }
  if (Array.isArray(obj.data)) {
    const total = Number(obj.count ?? obj.total ?? obj.data.length);
    return { rows: obj.data as T[], total: Number.isFinite(total) ? total : obj.data.length };
  }
  if (obj.data && typeof obj.data === 'object') return normalizeList<T>(obj.data);
  return null;
}

const STATUS_TEXT: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  422: 'Unprocessable Entity',
  429: 'Too Many Requests',
  500: 'Internal Server Error',
  502: 'Bad Gateway',
  503: 'Service Unavailable',
  504: 'Gateway Timeout',
};

export function httpStatusText(status: number, statusText?: string): string {
  return statusText || STATUS_TEXT[status] || `HTTP ${status}`;
}

/**
 * Text of the empty area after a failed load (SPEC §8): the HTTP status text for an HTTP failure,
 * the server message for a code other than 200, 'data format error' for an unparseable answer.
 */
export function emptyTextForError(error: unknown, formatError: string): string {
  if (error instanceof RequestError) {
    switch (error.kind) {
      case 'http':
        return httpStatusText(error.status ?? 0, error.statusText);
      case 'format':
        return formatError;
      default:
        return error.message;
    }
  }
  if (error instanceof Error) return error.message;
  return String(error);
}
