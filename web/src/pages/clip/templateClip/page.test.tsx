import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ClipTemplate } from '@/api/clip/aiclip';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import TemplateClipPage from '.';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const tpl = (over: Partial<ClipTemplate>): ClipTemplate => ({
  id: 1,
  category: 'food',
  category_name: 'Food & drink',
  name: 'Signature dish visit',
  builtin: true,
  mode: 'normal',
  slots: ['Storefront', 'Dish', 'Kitchen'],
  recipe: {
    slots: [],
    subtitles: { enabled: true, style: { font_id: null, size: 56, color: '#FFFFFF', position: 'bottom' } },
    music: { mood: 'upbeat', volume: 40 },
    title: { pattern: '{name}·必吃招牌', style: { font_id: null, size: 72, color: '#FFD700', position: 'top' } },
    voice: null,
    output_count: 5,
  },
  liked: false,
  likes: 0,
  uses: 0,
  created_at: 0,
  ...over,
});

let calls: { path: string; method: string; body: unknown; query: string }[];
let feedback: ReturnType<typeof spyFeedback>;
beforeEach(() => {
  calls = [];
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, method: init.method ?? 'GET', body, query: url.search });
    if (path.endsWith('/getCategory'))
      return ok({ rows: [{ key: 'food', name: 'Food & drink', count: 2 }, { key: 'custom', name: 'My templates', count: 1 }], total: 2 });
    if (path.endsWith('/clip.merchant_ai_clip_template/index'))
      return ok({ rows: [tpl({}), tpl({ id: 9, name: 'Mine', builtin: false, category: 'custom', category_name: 'My templates', liked: true, likes: 1 })], total: 2 });
    if (path.endsWith('/get_resource_group'))
      return ok({ rows: [11, 12, 13].map((id) => ({ id, name: `G${id}`, count: 2, ready: 2 })), total: 3 });
    if (path.endsWith('/template_clip')) return ok({ id: 77, name: body.name, mode: 'normal' });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const posts = (suffix: string) => calls.filter((c) => c.method === 'POST' && c.path.endsWith(suffix)).map((c) => c.body);

describe('/template_clip', { timeout: 60_000 }, () => {
  it('lists templates by category, likes one, deletes only the merchant’s own', async () => {
    renderPage(<TemplateClipPage />, { route: '/template_clip' });
    expect(await screen.findByTestId('template-name-1')).toHaveTextContent('Signature dish visit');
    expect(screen.getByTestId('template-slots-1')).toHaveTextContent('Storefront → Dish → Kitchen');
    expect(screen.getByTestId('template-1')).toHaveTextContent('Music: upbeat');
    expect(screen.queryByTestId('template-delete-1')).toBeNull();
    expect(screen.getByTestId('template-delete-9')).toBeInTheDocument();
    expect(screen.getByTestId('template-like-9')).toHaveAttribute('data-liked', '1');

    fireEvent.click(screen.getByTestId('template-like-1'));
    await waitFor(() => expect(posts('/template_like')).toEqual([{ id: 1, like: true }]));

    fireEvent.click(within(screen.getByTestId('template-categories')).getByText('Food & drink (2)'));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/index') && c.query.includes('category=food'))).toBe(true));
  });

  it('uses a template: matched by name, or with groups picked per slot', async () => {
    renderPage(<TemplateClipPage />, { route: '/template_clip' });
    fireEvent.click(await screen.findByTestId('template-use-1'));
    fireEvent.change(await screen.findByTestId('template-use-name'), { target: { value: 'Noodles' } });
    fireEvent.click(screen.getByTestId('template-use-ok'));
    await waitFor(() => expect(posts('/template_clip')).toEqual([{ id: 1, name: 'Noodles' }]));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith("Project 'Noodles' made from the template"));
  });
});
