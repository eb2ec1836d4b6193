import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import {
  addBenchmark,
  addKeywords,
  addLexWords,
  collectWord,
  deleteBenchmark,
  deleteCollected,
  deleteKeywords,
  deleteLexWords,
  deleteSavedTitles,
  editKeyword,
  editSavedTitle,
  excavateWords,
  fetchBenchmark,
  fetchCategories,
  fetchCollected,
  fetchHot,
  fetchProfile,
  fetchStyles,
  generateTitles,
  saveCategory,
  saveProfile,
  saveTitles,
  searchWords,
  seoUrls,
  syncBenchmark,
} from '.';

let calls: { method: string; path: string; query: Record<string, string>; body: unknown }[];
beforeEach(() => {
  calls = [];
  spyFeedback();
  mockFetch((url, init) => {
    const query = Object.fromEntries([...url.searchParams].filter(([k]) => k !== '_t' && k !== 'timestamp'));
    calls.push({ method: init.method ?? 'GET', path: url.pathname.replace('/api', ''), query, body: init.body ? JSON.parse(String(init.body)) : undefined });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const sent = () => calls.map((c) => [`${c.method} ${c.path}`, c.body]);

describe('seo calls', () => {
  it('the title engine and the saved titles: screen.merchant_seo_lexicon/*', async () => {
    const req = { keywords: ['火锅', '成都'], styles: ['numbers'], count: 20, max_chars: 50, lang: 'zh' as const };
    await generateTitles(req);
    await fetchStyles('en');
    await saveTitles(['a', 'b']);
    await saveTitles(['c'], 3);
    await editSavedTitle(7, 'd');
    await editSavedTitle(7, 'e', 4);
    await deleteSavedTitles(7);
    await deleteSavedTitles([7, 8]);
    expect(sent()).toEqual([
      ['POST /screen.merchant_seo_lexicon/ai_title', req],
      ['GET /screen.merchant_seo_lexicon/styles', undefined],
      ['POST /screen.merchant_seo_lexicon/ai_add', { titles: ['a', 'b'] }],
      ['POST /screen.merchant_seo_lexicon/ai_add', { titles: ['c'], category_id: 3 }],
      ['POST /screen.merchant_seo_lexicon/ai_edit', { id: 7, title: 'd' }],
      ['POST /screen.merchant_seo_lexicon/ai_edit', { id: 7, title: 'e', category_id: 4 }],
      ['POST /screen.merchant_seo_lexicon/ai_delete', { id: 7 }],
      ['POST /screen.merchant_seo_lexicon/ai_delete', { ids: [7, 8] }],
    ]);
    expect(calls[1].query).toEqual({ lang: 'en' });
    expect(seoUrls.titles).toBe('/screen.merchant_seo_lexicon/index');
  });

  it('categories, their keywords and the profile', async () => {
    await fetchCategories();
    await saveCategory('餐饮');
    await saveCategory('美食', 2);
    await addKeywords(2, ['火锅']);
    await editKeyword(5, '串串');
    await deleteKeywords([5]);
    await saveProfile({ brand: 'B', product: 'P', region: 'R', description: 'D', category_id: 2 });
    await fetchProfile();
    expect(sent()).toEqual([
      ['POST /screen.merchant_seo_lexicon/getAllAiCategory', {}],
      ['POST /screen.merchant_seo_lexicon/ai_category', { name: '餐饮' }],
      ['POST /screen.merchant_seo_lexicon/ai_category', { id: 2, name: '美食' }],
      ['POST /screen.merchant_seo_lexicon/keywords_add', { category_id: 2, words: ['火锅'] }],
      ['POST /screen.merchant_seo_lexicon/keywords_edit', { id: 5, word: '串串' }],
      ['POST /screen.merchant_seo_lexicon/keywords_delete', { ids: [5] }],
      ['POST /screen.merchant_seo_lexicon/edit', { brand: 'B', product: 'P', region: 'R', description: 'D', category_id: 2 }],
      ['GET /seo.merchant_seo_lexicon/profile', undefined],
    ]);
    expect(seoUrls.keywords).toBe('/screen.merchant_seo_lexicon/keywords');
  });

  it('lexicons: seo.merchant_seo_lexicon/*', async () => {
    await addLexWords('banned', ['最', '第一']);
    await deleteLexWords(3);
    await deleteLexWords([3, 4]);
    expect(sent()).toEqual([
      ['POST /seo.merchant_seo_lexicon/add', { kind: 'banned', words: ['最', '第一'] }],
      ['POST /seo.merchant_seo_lexicon/delete', { id: 3 }],
      ['POST /seo.merchant_seo_lexicon/delete', { ids: [3, 4] }],
    ]);
    expect(seoUrls.lexicon).toBe('/seo.merchant_seo_lexicon/index');
  });

  it('keyword search and mining: seo.merchant_keywords/*', async () => {
    await searchWords('dy', '火锅');
    await excavateWords('ks', '火锅');
    await fetchHot('dy');
    await collectWord('火锅', 'dy', 1200);
    await collectWord('串串', 'ks');
    await fetchCollected(2, 50);
    await deleteCollected([1, 2]);
    expect(sent()).toEqual([
      ['POST /seo.merchant_keywords/search', { platform: 'dy', word: '火锅' }],
      ['POST /seo.merchant_keywords/excavate', { platform: 'ks', word: '火锅' }],
      ['POST /seo.merchant_keywords/hot', { platform: 'dy' }],
      ['POST /seo.merchant_keywords/collect', { word: '火锅', platform: 'dy', heat: 1200 }],
      ['POST /seo.merchant_keywords/collect', { word: '串串', platform: 'ks' }],
      ['POST /seo.merchant_keywords/list', { page: 2, limit: 50 }],
      ['POST /seo.merchant_keywords/delete', { ids: [1, 2] }],
    ]);
  });

  it('benchmark accounts: seo.benchmark/*', async () => {
    await addBenchmark('dy', 'https://v.douyin.com/abc/');
    await fetchBenchmark(4);
    await syncBenchmark(4);
    await deleteBenchmark(4);
    expect(sent()).toEqual([
      ['POST /seo.benchmark/add', { platform: 'dy', link: 'https://v.douyin.com/abc/' }],
      ['POST /seo.benchmark/info', { id: 4 }],
      ['POST /seo.benchmark/sync', { id: 4 }],
      ['POST /seo.benchmark/delete', { id: 4 }],
    ]);
    expect(seoUrls.benchmarks).toBe('/seo.benchmark/index');
  });
});
