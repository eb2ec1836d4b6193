import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { storage } from '@/utils/storage';
import { SAVED_FILTER_DELAY_MS, deleteSavedFilter, listSavedFilters, saveFilter, validateFilterName } from './savedFilters';

beforeEach(async () => {
  await i18n.changeLanguage('en');
  vi.useFakeTimers();
  storage.set('user', { id: 7, username: 'demo' });
});
afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

async function settle<T>(promise: Promise<T>): Promise<T> {
  await vi.advanceTimersByTimeAsync(SAVED_FILTER_DELAY_MS);
  return promise;
}

describe('saved common filters (SPEC §3, §5, §7)', () => {
  it('answer after 500 ms without a network call', async () => {
    const fetch = vi.fn();
    vi.stubGlobal('fetch', fetch);
    let done = false;
    const p = listSavedFilters('log').then((v) => {
      done = true;
      return v;
    });
    await vi.advanceTimersByTimeAsync(SAVED_FILTER_DELAY_MS - 1);
    expect(done).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await p).toEqual([]);
    expect(done).toBe(true);
    expect(fetch).not.toHaveBeenCalled();
  });

  it("a name is required and must not be blank: 'name cannot be empty'", async () => {
    expect(validateFilterName('')).toBe('name cannot be empty');
    expect(validateFilterName('   ')).toBe('name cannot be empty');
    expect(validateFilterName(undefined)).toBe('name cannot be empty');
    expect(validateFilterName(' a ')).toBeNull();
    const p = saveFilter('log', ' \t ', { a: '1|=' });
    const caught = p.catch((e: Error) => e.message);
    await vi.advanceTimersByTimeAsync(SAVED_FILTER_DELAY_MS);
    expect(await caught).toBe('name cannot be empty');
  });

  it('save, list and delete are kept per user and per table in localStorage', async () => {
    const saved = await settle(saveFilter('log', ' Today OK ', { result: 'success|=' }));
    expect(saved).toMatchObject({ title: 'Today OK', filterObj: { result: 'success|=' } });
    expect(JSON.parse(window.localStorage.getItem('cm_common_filters_7_log')!).v).toHaveLength(1);
    expect(await settle(listSavedFilters('log'))).toEqual([saved]);
    expect(await settle(listSavedFilters('usage'))).toEqual([]);

    // the same name replaces the filter
    await settle(saveFilter('log', 'Today OK', { result: 'failed|=' }));
    const list = await settle(listSavedFilters('log'));
    expect(list).toHaveLength(1);
    expect(list[0].filterObj).toEqual({ result: 'failed|=' });

    storage.set('user', { id: 8, username: 'other' });
    expect(await settle(listSavedFilters('log'))).toEqual([]);
    storage.set('user', { id: 7, username: 'demo' });

    await settle(deleteSavedFilter('log', list[0].id));
    expect(await settle(listSavedFilters('log'))).toEqual([]);
  });
});
