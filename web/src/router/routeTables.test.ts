/**
 * SPEC §2's two route tables: a route listed for one language only is offered in that language only
 * (`meta.lang`); every other declared route is in both. Routes not built yet are skipped (they are
 * checked as soon as a module declares them).
 */
import { describe, expect, it } from 'vitest';
import { inLanguage } from './menu';
import { appRoutes, routeByPath } from './routes';

/** SPEC §2: "(zh)", "zh only", "zh also", "Courses (zh)", the zh AI-create list, "or … (en)". */
const ZH_ONLY = [
  '/visualIframe',
  '/test',
  '/newAiHome',
  '/template_clip',
  '/ai_home',
  '/key_excavate',
  '/keywords_num',
  '/account_see',
  '/ai_index_new',
  '/NewAiVoiceIndex',
  '/AiVoiceIndex',
  '/ai_voice_new',
  '/new_ai_create',
  '/xzsspecial',
  '/special',
  '/specialdyvideo',
  '/special2',
  '/account',
  '/Popular',
  '/course',
  '/shot_tutorial',
];
const EN_ONLY = ['/oneKeyVideoNew', '/ai_index', '/user_library'];

describe('route tables (SPEC §2)', () => {
  it('offers zh-only routes in Chinese only and en-only routes in English only', () => {
    for (const path of ZH_ONLY) {
      const r = routeByPath.get(path);
      if (!r) continue;
      expect(r.meta.lang, path).toBe('zh-CN');
      expect(inLanguage(r.meta, 'en'), path).toBe(false);
    }
    for (const path of EN_ONLY) {
      const r = routeByPath.get(path);
      if (!r) continue;
      expect(r.meta.lang, path).toBe('en');
      expect(inLanguage(r.meta, 'zh-CN'), path).toBe(false);
    }
  });

  it('offers every other route in both languages', () => {
    const oneLanguage = new Set([...ZH_ONLY, ...EN_ONLY]);
    const both = appRoutes.filter((r) => !oneLanguage.has(r.path));
    expect(both.filter((r) => r.meta.lang).map((r) => r.path)).toEqual([]);
    for (const path of ['/home', '/code', '/hotmusic', '/keywords', '/hotvideo', '/hottopic', '/life', '/doyen', '/log', '/dashboard']) {
      expect(routeByPath.has(path), path).toBe(true);
    }
  });
});
