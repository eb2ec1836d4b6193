/**
 * Resumable upload (docs/api-materials.md "Resumable upload"): ossUpload gives an upload id and the
 * chunk size; every chunk not yet `received` is POSTed to /ajax/upload_chunk; add_upfile stores the
 * material. The upload id is kept in localStorage under (file name, size, lastModified), so after a
 * reload or a failure the same file asks getYunData which chunks arrived and sends only the others.
 */
import { uploadFile } from '@/components/Upload/core';
import { storage } from '@/utils/storage';
import { api, narrowed, unchecked, type Body } from '../client';
import { RequestError } from '../request';
import type { MediaFile, UploadLibrary, UploadPolicy } from './types';

/** Files up to this size go through the direct multipart call; larger ones are uploaded in chunks. */
export const DIRECT_LIMIT = 5 * 1024 * 1024;

export interface FileIdentity {
  name: string;
  size: number;
  lastModified: number;
}

export interface ChunkRange {
  index: number;
  start: number;
  end: number;
}

/** What localStorage keeps for a started upload. */
export interface StoredUpload {
  upload_id: string;
  library: UploadLibrary;
  group_id: number;
  expires_at: number;
}

/** localStorage key of a file's upload (the storage helper adds its `cm_` prefix). */
export function resumeKey(file: FileIdentity): string {
  return `upload:${file.name}:${file.size}:${file.lastModified}`;
}

/** Byte ranges of every chunk: all `chunkSize` long except the last. */
export function chunkPlan(size: number, chunkSize: number): ChunkRange[] {
  if (size <= 0 || chunkSize <= 0) return [];
  const total = Math.ceil(size / chunkSize);
  return Array.from({ length: total }, (_, index) => ({ index, start: index * chunkSize, end: Math.min(size, (index + 1) * chunkSize) }));
}

/** The chunks still to send, in order. */
export function missingChunks(plan: readonly ChunkRange[], received: readonly number[]): ChunkRange[] {
  const have = new Set(received);
  return plan.filter((c) => !have.has(c.index));
}

/** Bytes already on the server. */
export function receivedBytes(plan: readonly ChunkRange[], received: readonly number[]): number {
  const have = new Set(received);
  return plan.reduce((sum, c) => (have.has(c.index) ? sum + (c.end - c.start) : sum), 0);
}

export const startUpload = (body: Body<'/ajax/ossUpload'>): Promise<UploadPolicy> =>
  api.post('/ajax/ossUpload', body);
export const uploadStatus = (uploadId: string): Promise<{ upload: UploadPolicy | null }> =>
  unchecked(api.get('/ajax/getYunData', { upload_id: uploadId }, { silent: true }));
export const finishUpload = (uploadId: string, name?: string): Promise<MediaFile> =>
  narrowed(api.post('/ajax/add_upfile', name ? { upload_id: uploadId, name } : { upload_id: uploadId }, { silent: true }));

export interface ResumableOptions {
  library: UploadLibrary;
  groupId?: number;
  /** Display name of the stored material (default: the file name). */
  name?: string;
  /** 0-100 over the whole file. */
  onProgress?: (percent: number) => void;
  signal?: AbortSignal;
}

/** Asks the server which chunks of a stored upload arrived; null when there is none (or it expired). */
async function resume(file: File, key: string, options: ResumableOptions): Promise<UploadPolicy | null> {
  const stored = storage.get<StoredUpload>(key);
  if (!stored) return null;
  if (stored.library !== options.library || stored.group_id !== (options.groupId ?? 0) || stored.expires_at <= Date.now()) {
    storage.remove(key);
    return null;
  }
  try {
    const { upload } = await uploadStatus(stored.upload_id);
    if (upload && upload.size === file.size) return upload;
  } catch (error) {
    if (!(error instanceof RequestError) || error.status !== 422) throw error;
  }
  storage.remove(key); // expired or unknown: start over
  return null;
}

/** Uploads a file in chunks, resuming an earlier upload of the same file. Resolves with the stored material. */
export async function resumableUpload(file: File, options: ResumableOptions): Promise<MediaFile> {
  const key = resumeKey(file);
  let policy = await resume(file, key, options);
  if (!policy) {
    policy = await startUpload({ file_name: file.name, size: file.size, library: options.library, group_id: options.groupId ?? 0 });
    storage.set<StoredUpload>(
      key,
      { upload_id: policy.upload_id, library: options.library, group_id: options.groupId ?? 0, expires_at: policy.expires_at },
      Math.max(0, policy.expires_at - Date.now()),
    );
  }
  const plan = chunkPlan(file.size, policy.chunk_size);

  const send = async (received: number[]) => {
    let done = receivedBytes(plan, received);
    options.onProgress?.(Math.floor((done / file.size) * 100));
    for (const chunk of missingChunks(plan, received)) {
      if (options.signal?.aborted) throw new RequestError('aborted', 'aborted');
      const length = chunk.end - chunk.start;
      await uploadFile({
        action: `/ajax/upload_chunk?upload_id=${encodeURIComponent(policy.upload_id)}&index=${chunk.index}`,
        file: file.slice(chunk.start, chunk.end),
        fileName: file.name,
        signal: options.signal,
        onProgress: (p) => options.onProgress?.(Math.min(99, Math.floor(((done + (length * p) / 100) / file.size) * 100))),
      });
      done += length;
    }
  };

  await send(policy.received);
  try {
    const stored = await finishUpload(policy.upload_id, options.name);
    storage.remove(key);
    options.onProgress?.(100);
    return stored;
  } catch (error) {
    // chunks missing after all (another tab, a lost answer): ask once more and send the rest
    if (error instanceof RequestError && error.status === 422 && error.field === 'upload_id' && /\d/.test(error.message)) {
      const status = await uploadStatus(policy.upload_id).catch(() => null);
      if (status?.upload) {
        await send(status.upload.received);
        const stored = await finishUpload(policy.upload_id, options.name);
        storage.remove(key);
        options.onProgress?.(100);
        return stored;
      }
    }
    // the server spends the session on any other refusal: the next try starts over
    if (error instanceof RequestError && error.status === 422) storage.remove(key);
    throw error;
  }
}
