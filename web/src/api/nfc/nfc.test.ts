import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { addTag, addTitles, deleteTag, deleteTitles, editTag, editTitle, fetchPools, fetchStats, fetchTag, fetchTitles } from '.';
import type { TagReq } from './types';

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

const req: TagReq = { name: 'Table 1', platform: 'dy', pool_kind: 'group', pool_id: 7, activity_id: 0, topics: ['food'], enabled: true };

describe('nfc calls', () => {
  it('tags: post to nfc.index/*, edit sends the id with the body', async () => {
    await fetchTag(1);
    await addTag(req);
    await editTag(1, req);
    await deleteTag(1);
    await fetchPools();
    expect(calls.map((c) => [`${c.method} ${c.path}`, c.body])).toEqual([
      ['POST /nfc.index/info', { id: 1 }],
      ['POST /nfc.index/add', req],
      ['POST /nfc.index/edit', { ...req, id: 1 }],
      ['POST /nfc.index/delete', { id: 1 }],
      ['POST /nfc.index/pools', {}],
    ]);
  });

  it('titles and figures', async () => {
    await fetchTitles(1, 2, 50);
    await addTitles(1, ['a', 'b']);
    await editTitle(9, 'c');
    await deleteTitles([9, 10]);
    await fetchStats(1, 30);
    expect(calls.map((c) => [c.path, c.body])).toEqual([
      ['/nfc.index/titles', { tag_id: 1, page: 2, limit: 50 }],
      ['/nfc.index/title_add', { tag_id: 1, titles: ['a', 'b'] }],
      ['/nfc.index/title_edit', { id: 9, title: 'c' }],
      ['/nfc.index/title_delete', { ids: [9, 10] }],
      ['/nfc.index/stats', { id: 1, days: 30 }],
    ]);
  });
});
