import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok } from '@/test/utils';
import { installFakeXhr, type FakeXhr } from '@/test/xhr';
import { mediaUploader, uploadRoute } from './uploader';

const MiB = 1024 * 1024;
const sized = (name: string, size: number) => {
  const f = new File(['x'], name, { type: 'video/mp4', lastModified: 1 });
  Object.defineProperty(f, 'size', { value: size });
  return f;
};

let Xhr: typeof FakeXhr;
beforeEach(() => {
  Xhr = installFakeXhr();
});
afterEach(() => vi.unstubAllGlobals());

describe('which way a material is uploaded', () => {
  it('up to 5 MiB directly, larger ones in resumable chunks where the library has them', () => {
    expect(uploadRoute({ size: 5 * MiB }, { library: 'resource' })).toBe('direct');
    expect(uploadRoute({ size: 5 * MiB + 1 }, { library: 'resource' })).toBe('resumable');
    expect(uploadRoute({ size: 50 * MiB }, {})).toBe('direct'); // fonts, operator music: no chunked upload
  });

  it('a small file goes to the library call with its fields, and the stored row comes back', async () => {
    const stored = vi.fn();
    const upload = mediaUploader({ action: '/media.merchant_much_resource/add_resource', data: { group_id: 4 }, library: 'resource', groupId: 4, onStored: stored });
    const done = upload(sized('a.mp4', 1000), () => undefined);
    await vi.waitFor(() => expect(Xhr.all).toHaveLength(1));
    expect(Xhr.all[0].url).toMatch(/^\/api\/media\.merchant_much_resource\/add_resource/);
    expect([...Xhr.all[0].body!.keys()]).toEqual(['group_id', 'file']);
    Xhr.all[0].respond({ code: 200, message: 'ok', data: { id: 8, fileName: 'a.mp4', src: '/files/8/original', group_id: 4 } });
    await expect(done).resolves.toMatchObject({ id: 8 });
    expect(stored).toHaveBeenCalledWith(expect.objectContaining({ id: 8 }));
  });

  it('a large video starts a resumable upload into the same group', async () => {
    const paths: string[] = [];
    const bodies: unknown[] = [];
    mockFetch((url, init) => {
      paths.push(url.pathname);
      bodies.push(init.body ? JSON.parse(String(init.body)) : undefined);
      return ok({ upload_id: 'u', chunk_size: 5 * MiB, total_chunks: 2, received: [0, 1], expires_at: Date.now() + 1000, signature: 's', chunk_url: '' });
    });
    const upload = mediaUploader({ action: '/media.merchant_much_resource/add_resource', library: 'resource', groupId: 4 });
    await upload(sized('big.mp4', 6 * MiB), () => undefined);
    expect(paths).toEqual(['/api/ajax/ossUpload', '/api/ajax/add_upfile']); // both chunks were already there
    expect(bodies[0]).toEqual({ file_name: 'big.mp4', size: 6 * MiB, library: 'resource', group_id: 4 });
    expect(Xhr.all).toHaveLength(0);
  });
});
