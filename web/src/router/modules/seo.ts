import type { AppRoute } from '../types';

/**
 * SEO area (docs/api-seo.md, SPEC §2 "SEO"): hot words, keyword search and mining, collected keywords,
 * titles from keywords, lexicon settings, benchmark accounts and the Administrator's built-in keywords.
 * `/ai_home`, `/key_excavate`, `/keywords_num` and `/account_see` are in the zh-cn route table only.
 */
const KEYWORDS = 'seo/merchant_keywords/*';
const TITLES = 'screen/merchant_seo_lexicon/*';
const LEXICON = 'seo/merchant_seo_lexicon/*';

const routes: AppRoute[] = [
  {
    path: '/ai_home',
    meta: { title: 'menu.aiHome', icon: 'HomeOutlined', permission: KEYWORDS, lang: 'zh-CN' },
    load: () => import('@/pages/seo/aiHome'),
  },
  {
    path: '/key_search',
    meta: { title: 'menu.keySearch', icon: 'SearchOutlined', permission: KEYWORDS },
    load: () => import('@/pages/seo/keySearch'),
  },
  {
    path: '/key_excavate',
    meta: { title: 'menu.keyExcavate', icon: 'NodeExpandOutlined', permission: KEYWORDS, lang: 'zh-CN' },
    load: () => import('@/pages/seo/keyExcavate'),
  },
  {
    path: '/keywords_num',
    meta: { title: 'menu.keywordsNum', icon: 'StarOutlined', permission: KEYWORDS, lang: 'zh-CN' },
    load: () => import('@/pages/seo/keywordsNum'),
  },
  {
    path: '/keywords-new_title',
    meta: { title: 'menu.keywordsNewTitle', icon: 'FontSizeOutlined', permission: TITLES },
    load: () => import('@/pages/seo/newTitle'),
  },
  {
    path: '/keysword_setting',
    meta: { title: 'menu.keyswordSetting', icon: 'BookOutlined', permission: LEXICON },
    load: () => import('@/pages/seo/lexicon'),
  },
  {
    path: '/account_see',
    meta: { title: 'menu.accountSee', icon: 'EyeOutlined', permission: 'seo/benchmark/*', lang: 'zh-CN' },
    load: () => import('@/pages/seo/accountSee'),
  },
  {
    path: '/new_ai_title',
    meta: { title: 'menu.newAiTitle', icon: 'TagsOutlined', admin: true, permission: TITLES },
    load: () => import('@/pages/seo/builtinKeywords'),
  },
  {
    path: '/system/ai_provider',
    meta: { title: 'menu.systemAiProvider', icon: 'ControlOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/seo/aiProvider'),
  },
];

export default routes;
