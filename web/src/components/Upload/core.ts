/**
 * What the uploaders share (SPEC §3 "Upload response", §4 upload item / queue, §5 image upload, §8, §9):
 * the file checks, the multipart POST with progress (XMLHttpRequest: fetch reports no upload
 * progress), and the rule that an upload succeeded only when the body's code is 200.
 */
import { buildHeaders, buildUrl } from '@/api/request';
import { SUCCESS_CODE } from '@/config';
import { wt } from '../i18n';

/** SPEC §9: accepted image types gif, jpeg, png. */
export const IMAGE_TYPES = ['image/gif', 'image/jpeg', 'image/png'] as const;
/** SPEC §9: upload size default 10 MB. */
export const DEFAULT_MAX_SIZE_MB = 10;
/** SPEC §9: single upload box 148x148. */
export const SINGLE_BOX = 148;

export interface UploadResponse {
  code: number;
  message: string;
  data: { fileName: string; src: string };
}

/** SPEC §4: upload item states. */
export type UploadItemStatus = 'ready' | 'uploading' | 'success' | 'error';

export interface UploadItem {
  uid: string;
  name: string;
  status: UploadItemStatus;
  percent: number;
  /** Image address once uploaded (data.src). */
  src?: string;
  fileName?: string;
}

export type FileCheck = { ok: true } | { ok: false; message: string };

let uidSeq = 0;
export function nextUid(): string {
  uidSeq += 1;
  return `up-${Date.now().toString(36)}-${uidSeq}`;
}

export function isImage(file: File): boolean {
  return (IMAGE_TYPES as readonly string[]).includes(file.type);
}

/** Size check (every uploader): at most maxSize MB. */
export function checkSize(file: File, maxSizeMb: number = DEFAULT_MAX_SIZE_MB): FileCheck {
  if (file.size > maxSizeMb * 1024 * 1024) return { ok: false, message: wt('upload.tooLarge', { n: maxSizeMb }) };
  return { ok: true };
}

/** Image uploaders: the type first, then the size. */
export function checkImage(file: File, maxSizeMb: number = DEFAULT_MAX_SIZE_MB): FileCheck {
  if (!isImage(file)) return { ok: false, message: wt('upload.notImage') };
  return checkSize(file, maxSizeMb);
}

/** SPEC §5: over the count limit. */
export function checkCount(current: number, adding: number, limit: number): FileCheck {
  if (current + adding > limit) return { ok: false, message: wt('upload.overLimit', { limit }) };
  return { ok: true };
}

export class UploadError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UploadError';
  }
}

export interface UploadOptions {
  /** Endpoint: a path under /api or an absolute URL. */
  action: string;
  file: Blob;
  fileName?: string;
  /** Multipart field name of the file (default 'file'). */
  field?: string;
  /** Extra multipart fields. */
  data?: Record<string, string | number>;
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/**
 * POSTs the file as multipart with the session headers. Resolves with the response body when
 * `code === 200`; otherwise rejects with UploadError carrying the server message ('' when the
 * server gave none, so the caller falls back to 'unknown error').
 */
export function uploadFile({ action, file, fileName, field = 'file', data, onProgress, signal }: UploadOptions): Promise<UploadResponse> {
  return new Promise<UploadResponse>((resolve, reject) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(data ?? {})) form.append(k, String(v));
    form.append(field, file, fileName ?? (file instanceof File ? file.name : 'blob'));

    const xhr = new XMLHttpRequest();
    const url = buildUrl(action, 'POST');
    xhr.open('POST', url, true);
    const headers = buildHeaders({ url: action, method: 'POST', data: form });
    for (const [k, v] of Object.entries(headers)) {
      if (k.toLowerCase() === 'content-type') continue; // the browser sets the multipart boundary
      xhr.setRequestHeader(k, v);
    }
    xhr.upload.onprogress = (event: ProgressEvent) => {
      if (event.lengthComputable && event.total > 0) onProgress?.(Math.min(100, Math.round((event.loaded / event.total) * 100)));
    };
    xhr.onerror = () => reject(new UploadError(''));
    xhr.onabort = () => reject(new UploadError('aborted'));
    xhr.onload = () => {
      let body: Partial<UploadResponse> | undefined;
      try {
        body = xhr.responseText ? (JSON.parse(xhr.responseText) as Partial<UploadResponse>) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300 && body && body.code === SUCCESS_CODE) {
        onProgress?.(100);
        resolve(body as UploadResponse);
        return;
      }
      reject(new UploadError(typeof body?.message === 'string' ? body.message : ''));
    };
    signal?.addEventListener('abort', () => xhr.abort());
    xhr.send(form);
  });
}

/** The text of the 'upload file failed' notification: the server message or 'unknown error'. */
export function uploadErrorText(error: unknown): string {
  const message = error instanceof Error ? error.message : '';
  return message && message !== 'aborted' ? message : wt('upload.unknownError');
}
