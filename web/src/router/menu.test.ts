import { describe, expect, it } from 'vitest';
import type { MenuNode } from '@/api/auth/types';
import { buildMenu, homePath, menuPaths } from './menu';
import { appRoutes, routeByPath } from './routes';

const node = (id: number, path: string, extra: Partial<MenuNode> = {}): MenuNode => ({
  id,
  path,
  name: `menu.${path.slice(1)}`,
  icon: '',
  permission: [],
  hidden: false,
  admin: false,
  vip: false,
  children: [],
  ...extra,
});

describe('menu from /ajax/initAdmin', () => {
  const tree = [
    node(1, '/dashboard'),
    node(2, '/log'),
    node(3, '/staffAccount', { hidden: true }),
    node(4, '/not_built_yet'), // no page: not shown
    node(5, '/system', { admin: true, children: [node(6, '/system/merchant', { admin: true }), node(7, '/system/tasks', { admin: true })] }),
  ];

  it('keeps only routes declared locally and not hidden', () => {
    const menu = buildMenu(tree, { isAdmin: false });
    expect(menu.map((m) => m.path)).toEqual(['/dashboard', '/log']);
  });

  it('shows Administrator groups to the operator only', () => {
    const menu = buildMenu(tree, { isAdmin: true });
    expect(menu.at(-1)?.children?.map((m) => m.path)).toEqual(['/system/merchant', '/system/tasks']);
  });

  it('goes home to the dashboard, else to the first menu the user has', () => {
    expect(homePath(tree, { isAdmin: false })).toBe('/dashboard');
    expect(homePath([node(2, '/log')], { isAdmin: false })).toBe('/log');
    expect(homePath([], { isAdmin: false })).toBe('/usercenter');
  });

  it('hangs the material libraries under their parent menu', () => {
    const material = node(8, '/material', {
      children: ['/video', '/speak', '/music', '/image', '/font'].map((p, i) => node(10 + i, p)),
    });
    const menu = buildMenu([node(1, '/dashboard'), material], { isAdmin: false });
    expect(menu[1].key).toBe('group:8');
    expect(menu[1].children?.map((m) => m.path)).toEqual(['/video', '/speak', '/music', '/image', '/font']);
  });

  it('lists hidden paths as reachable', () => {
    expect(menuPaths(tree)).toContain('/staffAccount');
  });

  it('declares every route once', () => {
    const paths = appRoutes.map((r) => r.path);
    expect(new Set(paths).size).toBe(paths.length);
    expect(paths).toEqual(
      expect.arrayContaining(['/login', '/dashboard', '/usercenter', '/staffAccount', '/log', '/useRecord', '/system/tasks', '/video', '/speak', '/music', '/image', '/font', '/system/music']),
    );
    // the areas of docs/api-activities.md, each behind the permission of its calls
    expect(routeByPath.get('/Events')?.meta).toMatchObject({ title: 'menu.events', icon: 'GiftOutlined', permission: 'task/merchant_forward_task_activities/*' });
    expect(routeByPath.get('/nfc')?.meta).toMatchObject({ title: 'menu.nfc', icon: 'WifiOutlined', permission: 'nfc/index/*' });
    // Administrator pages live under /system/, except the review queue, the built-in keywords, /test and /intellect SPEC names
    expect(appRoutes.filter((r) => r.meta.admin).every((r) => r.path.startsWith('/system/') || ['/auditCheck', '/new_ai_title', '/test', '/intellect'].includes(r.path))).toBe(true);
  });

  it('declares the SEO routes with the permissions of their calls; four are in the zh-cn table only (SPEC §2)', () => {
    const meta = (p: string) => routeByPath.get(p)?.meta;
    expect(meta('/ai_home')).toMatchObject({ permission: 'seo/merchant_keywords/*', lang: 'zh-CN' });
    expect(meta('/key_search')).toMatchObject({ permission: 'seo/merchant_keywords/*' });
    expect(meta('/key_search')?.lang).toBeUndefined();
    expect(meta('/key_excavate')).toMatchObject({ permission: 'seo/merchant_keywords/*', lang: 'zh-CN' });
    expect(meta('/keywords_num')).toMatchObject({ permission: 'seo/merchant_keywords/*', lang: 'zh-CN' });
    expect(meta('/keywords-new_title')).toMatchObject({ permission: 'screen/merchant_seo_lexicon/*' });
    expect(meta('/keysword_setting')).toMatchObject({ permission: 'seo/merchant_seo_lexicon/*' });
    expect(meta('/account_see')).toMatchObject({ permission: 'seo/benchmark/*', lang: 'zh-CN' });
    expect(meta('/new_ai_title')).toMatchObject({ admin: true, permission: 'screen/merchant_seo_lexicon/*' });
  });

  it('opens the AI voice page on every AI-create route of SPEC §2, granted by the /ai_voice menu', () => {
    const meta = (p: string) => routeByPath.get(p)?.meta;
    expect(meta('/ai_voice')).toMatchObject({ title: 'menu.aiVoice', permission: 'ai/MerchantDub/*' });
    expect(meta('/ai_voice')?.lang).toBeUndefined();
    for (const p of ['/ai_index_new', '/NewAiVoiceIndex', '/AiVoiceIndex', '/ai_voice_new', '/new_ai_create'])
      expect(meta(p)).toMatchObject({ hidden: true, lang: 'zh-CN', menuPath: '/ai_voice' });
    expect(meta('/ai_index')).toMatchObject({ hidden: true, lang: 'en', menuPath: '/ai_voice' });
  });

  it('leaves the routes of the zh-cn table out of the English menu', () => {
    const seo = [node(20, '/seo', { children: ['/ai_home', '/key_search', '/key_excavate', '/keywords_num', '/keywords-new_title', '/keysword_setting', '/account_see'].map((p, i) => node(21 + i, p)) })];
    const paths = (lang: string) => buildMenu(seo, { isAdmin: false, lang })[0].children?.map((m) => m.path);
    expect(paths('zh-CN')).toEqual(['/ai_home', '/key_search', '/key_excavate', '/keywords_num', '/keywords-new_title', '/keysword_setting', '/account_see']);
    expect(paths('en')).toEqual(['/key_search', '/keywords-new_title', '/keysword_setting']);
    expect(homePath([node(21, '/ai_home'), node(22, '/key_search')], { isAdmin: false, lang: 'en' })).toBe('/key_search');
  });
});
