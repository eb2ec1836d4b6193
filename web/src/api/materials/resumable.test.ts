import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, spyFeedback } from '@/test/utils';
import { FakeXhr } from '@/test/xhr';
import { setFeedback } from '@/utils/feedback';
import { storage } from '@/utils/storage';
import { DIRECT_LIMIT, chunkPlan, missingChunks, receivedBytes, resumableUpload, resumeKey, type StoredUpload } from './resumable';

/** An XMLHttpRequest that answers every chunk by itself (or fails the ones the test says). */
class ChunkXhr extends FakeXhr {
  static failIndexes = new Set<number>();
  send(body: FormData) {
    super.send(body);
    const index = Number(new URL(this.url, 'http://localhost').searchParams.get('index'));
    queueMicrotask(() => {
      if (ChunkXhr.failIndexes.has(index)) this.respond({ code: 500, message: 'disk full' }, 500);
      else this.respond({ code: 200, message: 'ok', data: { received: [index], total_chunks: 3 } });
    });
  }
}

const file = (content = 'abcdefghij', name = 'clip.mp4', lastModified = 1_700_000_000_000) => new File([content], name, { type: 'video/mp4', lastModified });
const policy = (received: number[] = [], upload_id = 'up-1') => ({
  upload_id,
  file_name: 'clip.mp4',
  size: 10,
  chunk_size: 4,
  total_chunks: 3,
  received,
  expires_at: Date.now() + 3_600_000,
  signature: 'sig',
  chunk_url: `/api/ajax/upload_chunk?upload_id=${upload_id}`,
});
const stored = { id: 42, name: 'clip.mp4', kind: 'video', state: 'processing', src: '/files/42/original', fileName: 'clip.mp4' };

let calls: Array<{ path: string; body: unknown; query: URLSearchParams }>;
const chunks = () =>
  FakeXhr.all.map((x) => {
    const url = new URL(x.url, 'http://localhost');
    return { path: url.pathname, index: Number(url.searchParams.get('index')), upload: url.searchParams.get('upload_id'), size: (x.body?.get('file') as Blob).size };
  });

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  calls = [];
  FakeXhr.all = [];
  ChunkXhr.failIndexes = new Set();
  vi.stubGlobal('XMLHttpRequest', ChunkXhr);
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

function server(handlers: Record<string, (body: unknown, query: URLSearchParams) => Response>) {
  mockFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path: url.pathname, body, query: url.searchParams });
    const handler = handlers[url.pathname];
    return handler ? handler(body, url.searchParams) : json({ code: 404, message: 'no' }, 404);
  });
}

describe('chunk plan', () => {
  it('cuts the file into chunk_size pieces, the last one shorter', () => {
    expect(chunkPlan(10, 4)).toEqual([
      { index: 0, start: 0, end: 4 },
      { index: 1, start: 4, end: 8 },
      { index: 2, start: 8, end: 10 },
    ]);
    expect(chunkPlan(8, 4).map((c) => c.end - c.start)).toEqual([4, 4]);
    expect(chunkPlan(0, 4)).toEqual([]);
    const big = chunkPlan(300 * 1024 * 1024, 5 * 1024 * 1024);
    expect(big).toHaveLength(60);
    expect(big.at(-1)!.end).toBe(300 * 1024 * 1024);
  });

  it('resumes from `received`: only the other chunks are sent, their bytes count as done', () => {
    const plan = chunkPlan(10, 4);
    expect(missingChunks(plan, [0, 2]).map((c) => c.index)).toEqual([1]);
    expect(missingChunks(plan, []).map((c) => c.index)).toEqual([0, 1, 2]);
    expect(receivedBytes(plan, [0, 2])).toBe(6);
  });

  it('keys the upload by file name, size and lastModified', () => {
    expect(resumeKey(file())).toBe('upload:clip.mp4:10:1700000000000');
    expect(resumeKey(file('abcdefghij', 'clip.mp4', 1))).not.toBe(resumeKey(file()));
    expect(DIRECT_LIMIT).toBe(5 * 1024 * 1024);
  });
});

describe('resumableUpload', () => {
  it('asks for a policy, sends every chunk with its exact bytes, finishes and forgets the upload id', async () => {
    let saved: StoredUpload | null = null;
    server({
      '/api/ajax/ossUpload': () => {
        return ok(policy());
      },
      '/api/ajax/add_upfile': () => {
        saved = storage.get<StoredUpload>(resumeKey(file()));
        return ok(stored);
      },
    });
    const progress: number[] = [];
    const result = await resumableUpload(file(), { library: 'resource', groupId: 7, onProgress: (p) => progress.push(p) });
    expect(result).toMatchObject({ id: 42 });
    expect(calls[0]).toMatchObject({ path: '/api/ajax/ossUpload', body: { file_name: 'clip.mp4', size: 10, library: 'resource', group_id: 7 } });
    expect(chunks()).toEqual([
      { path: '/api/ajax/upload_chunk', index: 0, upload: 'up-1', size: 4 },
      { path: '/api/ajax/upload_chunk', index: 1, upload: 'up-1', size: 4 },
      { path: '/api/ajax/upload_chunk', index: 2, upload: 'up-1', size: 2 },
    ]);
    expect(calls.at(-1)).toMatchObject({ path: '/api/ajax/add_upfile', body: { upload_id: 'up-1' } });
    // kept while running, forgotten once stored
    expect(saved).toMatchObject({ upload_id: 'up-1', library: 'resource', group_id: 7 });
    expect(storage.get(resumeKey(file()))).toBeNull();
    expect(progress.at(-1)).toBe(100);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('after a failure the next try asks getYunData and sends only the missing chunks', async () => {
    const received = new Set<number>();
    server({
      '/api/ajax/ossUpload': () => ok(policy()),
      '/api/ajax/getYunData': (_b, q) => ok({ driver: 'local', upload: q.get('upload_id') === 'up-1' ? policy([...received]) : null }),
      '/api/ajax/add_upfile': () => ok(stored),
    });
    ChunkXhr.failIndexes = new Set([1]);
    // chunk 0 arrives, chunk 1 fails: the upload stops with the server's words
    await expect(resumableUpload(file(), { library: 'resource' })).rejects.toThrow('disk full');
    received.add(0);
    expect(storage.get<StoredUpload>(resumeKey(file()))?.upload_id).toBe('up-1');

    // a reload later: the same file (same name, size, lastModified)
    FakeXhr.all = [];
    calls = [];
    ChunkXhr.failIndexes = new Set();
    const progress: number[] = [];
    await resumableUpload(file(), { library: 'resource', onProgress: (p) => progress.push(p) });
    expect(calls.map((c) => c.path)).toEqual(['/api/ajax/getYunData', '/api/ajax/add_upfile']);
    expect(calls[0].query.get('upload_id')).toBe('up-1');
    expect(chunks().map((c) => c.index)).toEqual([1, 2]);
    expect(progress[0]).toBe(40); // 4 of 10 bytes were already there
  });

  it('starts over when the stored upload expired on the server (422)', async () => {
    storage.set<StoredUpload>(resumeKey(file()), { upload_id: 'old', library: 'resource', group_id: 0, expires_at: Date.now() + 60_000 });
    server({
      '/api/ajax/getYunData': () => json({ code: 422, message: 'The upload session does not exist or has expired; upload again', data: { field: 'upload_id' } }, 422),
      '/api/ajax/ossUpload': () => ok(policy([], 'up-2')),
      '/api/ajax/add_upfile': () => ok(stored),
    });
    await resumableUpload(file(), { library: 'resource' });
    expect(calls.map((c) => c.path)).toEqual(['/api/ajax/getYunData', '/api/ajax/ossUpload', '/api/ajax/add_upfile']);
    expect(chunks().every((c) => c.upload === 'up-2')).toBe(true);
    expect(chunks()).toHaveLength(3);
  });

  it('does not resume an upload meant for another library or group', async () => {
    storage.set<StoredUpload>(resumeKey(file()), { upload_id: 'old', library: 'resource', group_id: 3, expires_at: Date.now() + 60_000 });
    server({ '/api/ajax/ossUpload': () => ok(policy([], 'up-3')), '/api/ajax/add_upfile': () => ok(stored) });
    await resumableUpload(file(), { library: 'resource', groupId: 4 });
    expect(calls[0].path).toBe('/api/ajax/ossUpload');
  });

  it('when finishing reports missing chunks, asks again and sends them', async () => {
    let finishes = 0;
    server({
      '/api/ajax/ossUpload': () => ok(policy()),
      '/api/ajax/getYunData': () => ok({ upload: policy([0, 2]) }),
      '/api/ajax/add_upfile': () =>
        ++finishes === 1
          ? json({ code: 422, message: 'The upload is not complete: 1 chunks missing', data: { field: 'upload_id' } }, 422)
          : ok(stored),
    });
    await resumableUpload(file(), { library: 'video' });
    expect(chunks().map((c) => c.index)).toEqual([0, 1, 2, 1]);
    expect(finishes).toBe(2);
  });

  it('a refused file (422 on finishing) forgets the spent upload id', async () => {
    server({
      '/api/ajax/ossUpload': () => ok(policy()),
      '/api/ajax/add_upfile': () => json({ code: 422, message: 'Videos can be about 15 minutes at most (16.0)', data: { field: 'file' } }, 422),
    });
    await expect(resumableUpload(file(), { library: 'resource' })).rejects.toThrow('Videos can be about 15 minutes');
    expect(storage.get(resumeKey(file()))).toBeNull();
  });
});
