import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Tag } from '@/api/nfc/types';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import NfcPage from '.';
import { charts } from '@/test/echarts';

const tag = (id: number, over: Partial<Tag> = {}): Tag => ({
  id,
  name: `Table ${id}`,
  code: `k${id}`,
  url: `http://shop.test/t/k${id}`,
  platform: 'dy',
  pool_kind: 'group',
  pool_id: 7,
  pool_name: 'Dishes',
  activity_id: 0,
  activity_name: '',
  topics: ['food'],
  enabled: true,
  titles: 2,
  pool_size: 20,
  pool_left: 12,
  taps: 30,
  posts: 9,
  created_at: Date.UTC(2026, 10, 20, 8),
  ...over,
});

const days = ['2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23'];

let calls: { path: string; body: Record<string, unknown> }[];
let feedback: ReturnType<typeof spyFeedback>;
let answer: (path: string, body: Record<string, unknown>) => Response | undefined;

beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  calls = [];
  answer = () => undefined;
  feedback = spyFeedback();
  mockFetch((url, req) => {
    const path = url.pathname.replace('/api', '');
    const body = req.body ? (JSON.parse(String(req.body)) as Record<string, unknown>) : {};
    calls.push({ path, body });
    const custom = answer(path, body);
    if (custom) return custom;
    if (path === '/nfc.index/index')
      return ok({
        rows: [tag(1, { pool_left: 3, activity_id: 4, activity_name: 'Spring' }), tag(2, { pool_left: 0, pool_kind: 'project', pool_name: 'Autumn mix', enabled: false }), tag(3)],
        total: 3,
      });
    if (path === '/nfc.index/pools')
      return ok({ projects: [{ id: 5, name: 'Autumn mix', videos: 40, left: 38 }], groups: [{ id: 7, name: 'Dishes', videos: 20, left: 12 }] });
    if (path === '/task.merchant_forward_task_activities/index')
      return ok({ rows: [{ id: 4, name: 'Spring', state: 'running' }, { id: 6, name: 'Old', state: 'ended' }], total: 2 });
    if (path === '/nfc.index/titles') return ok({ rows: [{ id: 31, tag_id: 1, title: 'Best noodles in town', created_at: Date.UTC(2026, 10, 21) }], total: 1 });
    if (path === '/nfc.index/title_add') return ok({ added: (body.titles as string[]).length });
    if (path === '/screen.merchant_seo_lexicon/ai_title')
      return ok({ rows: [{ title: 'Noodles worth the queue', style: '', style_name: '', score: 1, keywords: [] }], keywords: [], topics: [], provider: 'openai', source: { kind: 'llm', model: 'sbx-chat', fallback_reason: '' } });
    if (path === '/nfc.index/stats')
      return ok({
        totals: { taps: 30, shares: 20, posts: 9, draws: 8, coupons: 3, redeemed: 1 },
        days: (body.days === 30 ? [...days, '2026-11-24'] : days).map((day, i) => ({ day, taps: i, shares: 0, posts: 1, draws: 0, redeemed: 0 })),
      });
    if (path === '/nfc.index/add' || path === '/nfc.index/edit') return ok(tag(9));
    if (path === '/index/copyCheck')
      return ok(
        String(body.text).includes('第一')
          ? { findings: [{ start: 4, end: 6, term: '第一', rule_id: 'ad.absolute.first', kind: 'absolute', severity: 'block', source: 'Advertising Law, Art. 9(3)', explanation: 'No absolute terms', suggestion: '人气' }], blocked: true }
          : { findings: [], blocked: false },
      );
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const pick = async (testId: string, text: string) => {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const options = await screen.findAllByText(text);
  fireEvent.click(options.find((o) => o.closest('.ant-select-item-option')) ?? options[options.length - 1]);
};

describe('/nfc', { timeout: 60_000 }, () => {
  it('lists the tags: address with QR code, pool with what is left (orange under 5, red at 0), activity, state, taps/posts', async () => {
    renderPage(<NfcPage />, { route: '/nfc' });
    expect(await screen.findByTestId('tags-row-1')).toBeInTheDocument();
    expect(screen.getByTestId('tags-row-3')).toBeInTheDocument();
    expect(screen.getByTestId('tag-url-1')).toHaveAttribute('href', 'http://shop.test/t/k1');
    expect(screen.getByTestId('tag-left-1')).toHaveTextContent('3/20 left');
    expect(screen.getByTestId('tag-left-1')).toHaveAttribute('data-level', 'low');
    expect(screen.getByTestId('tag-left-2')).toHaveAttribute('data-level', 'empty');
    expect(screen.getByTestId('tag-left-3')).toHaveAttribute('data-level', 'ok');
    expect(screen.getByTestId('tags-row-1')).toHaveTextContent('Spring');
    expect(screen.getByTestId('tags-row-2')).toHaveTextContent('Mixing project Autumn mix');
    expect(screen.getByTestId('tag-figures-1')).toHaveTextContent('30 / 9');
    expect(screen.getByTestId('tag-enabled-2')).not.toBeChecked();
    fireEvent.click(screen.getByTestId('tag-qr-button-1'));
    expect(await screen.findByTestId('tag-qr-1')).toBeInTheDocument();

    // the list's switch sends the tag as it is, with enabled turned
    fireEvent.click(screen.getByTestId('tag-enabled-2'));
    await waitFor(() => expect(calls.find((c) => c.path === '/nfc.index/edit')?.body).toEqual({
      id: 2,
      name: 'Table 2',
      platform: 'dy',
      pool_kind: 'project',
      pool_id: 7,
      activity_id: 0,
      topics: ['food'],
      enabled: true,
    }));
  });

  it('the add form needs a name and a pool, offers the pools as "name (left/videos)" and sends the contract body', async () => {
    renderPage(<NfcPage />, { route: '/nfc' });
    fireEvent.click(await screen.findByTestId('tag-add'));
    fireEvent.click(await screen.findByTestId('tag-form-ok'));
    expect(await screen.findByText('Please name the tag')).toBeInTheDocument();
    expect(screen.getByText('Please choose a video pool')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/nfc.index/add')).toBe(false);

    fireEvent.change(screen.getByTestId('tag-form-name'), { target: { value: ' Table 7 ' } });
    expect(screen.getByTestId('tag-form-platform')).toHaveTextContent('Douyin');
    expect(screen.getByTestId('tag-form')).toBeInTheDocument();
    expect(within(screen.getByTestId('tag-form-pool-kind')).getAllByRole('radio')).toHaveLength(2);
    fireEvent.click(screen.getByTestId('tag-form-pool-kind-group'));
    await pick('tag-form-pool', 'Dishes (12/20)');
    await pick('tag-form-activity', 'Spring');
    fireEvent.click(screen.getByTestId('tag-form-ok'));
    await waitFor(() => expect(calls.find((c) => c.path === '/nfc.index/add')?.body).toEqual({
      name: 'Table 7',
      platform: 'dy',
      pool_kind: 'group',
      pool_id: 7,
      activity_id: 4,
      topics: [],
      enabled: true,
    }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Saved successfully'));
  });

  it('a server 422 lands on its field', async () => {
    answer = (path) => (path === '/nfc.index/edit' ? json({ code: 422, message: 'That pool has no videos', data: { field: 'pool_id' } }, 422) : undefined);
    renderPage(<NfcPage />, { route: '/nfc' });
    fireEvent.click(await screen.findByTestId('tag-edit-3'));
    expect(await screen.findByTestId('tag-form-name')).toHaveValue('Table 3');
    fireEvent.click(screen.getByTestId('tag-form-ok'));
    expect(await within(screen.getByTestId('tag-form-form')).findByText('That pool has no videos')).toBeInTheDocument();
    expect(feedback.error).not.toHaveBeenCalled();
  });

  it('titles: one per line, a line over 50 characters is named and nothing is sent until it is fixed', async () => {
    renderPage(<NfcPage />, { route: '/nfc' });
    fireEvent.click(await screen.findByTestId('tag-titles-1'));
    expect(await screen.findByTestId('title-text-31')).toHaveTextContent('Best noodles in town');
    fireEvent.change(screen.getByTestId('titles-textarea'), { target: { value: `Fresh dumplings\n\n${'x'.repeat(51)}\nHot pot night` } });
    expect(screen.getByTestId('title-problem-3')).toHaveTextContent('Line 3 has 51 characters, more than 50');
    expect(screen.getByTestId('titles-add')).toBeDisabled();
    fireEvent.change(screen.getByTestId('titles-textarea'), { target: { value: `Fresh dumplings\n\n${'x'.repeat(50)}\nHot pot night` } });
    expect(screen.queryByTestId('title-problem-3')).toBeNull();
    fireEvent.click(screen.getByTestId('titles-add'));
    await waitFor(() => expect(calls.find((c) => c.path === '/nfc.index/title_add')?.body).toEqual({ tag_id: 1, titles: ['Fresh dumplings', 'x'.repeat(50), 'Hot pot night'] }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('3 title(s) added'));
    expect(screen.getByTestId('titles-textarea')).toHaveValue('');
  });

  it('titles: a claim is flagged as it is typed, for Douyin, and the rewrite applied', async () => {
    renderPage(<NfcPage />, { route: '/nfc' });
    fireEvent.click(await screen.findByTestId('tag-titles-1'));
    fireEvent.change(await screen.findByTestId('titles-textarea'), { target: { value: '本店面馆第一' } });
    expect(await screen.findByTestId('titles-copy-check-finding', {}, { timeout: 5000 })).toHaveAttribute('data-severity', 'block');
    expect(calls.find((c) => c.path === '/index/copyCheck')?.body).toMatchObject({ platforms: ['dy'] });
    fireEvent.click(screen.getByTestId('titles-copy-check-apply'));
    await waitFor(() => expect(screen.getByTestId('titles-textarea')).toHaveValue('本店面馆人气'));
  });

  it('titles: "AI titles" puts the picked ones in the box and says which writer wrote them', async () => {
    renderPage(<NfcPage />, { route: '/nfc' });
    fireEvent.click(await screen.findByTestId('tag-titles-1'));
    fireEvent.change(await screen.findByTestId('titles-textarea'), { target: { value: 'Fresh dumplings' } });
    fireEvent.click(screen.getByTestId('titles-generate'));
    fireEvent.click(await screen.findByTestId('pick-generate', undefined, { timeout: 10_000 }));
    await waitFor(() => expect(calls.find((c) => c.path === '/screen.merchant_seo_lexicon/ai_title')?.body).toMatchObject({ max_chars: 50 }));
    expect(await screen.findByTestId('pick-writer')).toHaveTextContent('LLM: sbx-chat');
    fireEvent.click(within(await screen.findByTestId('pick-row-Noodles worth the queue')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('pick-insert'));
    await waitFor(() => expect(screen.getByTestId('titles-textarea')).toHaveValue('Fresh dumplings\nNoodles worth the queue'));
  });

  it('figures: totals as cards and a chart of the days, 7 or 30 days', async () => {
    renderPage(<NfcPage />, { route: '/nfc' });
    fireEvent.click(await screen.findByTestId('tag-stats-1'));
    await waitFor(() => expect(screen.getByTestId('stats-total-taps')).toHaveTextContent('30'));
    await waitFor(() => expect(screen.getByTestId('stats-total-redeemed')).toHaveTextContent('1'));
    expect(await screen.findByTestId('stats-chart')).toBeInTheDocument();
    await waitFor(() => expect(charts.init).toHaveBeenCalled());
    expect(calls.find((c) => c.path === '/nfc.index/stats')?.body).toEqual({ id: 1, days: 7 });
    fireEvent.click(screen.getByTestId('stats-days-30'));
    await waitFor(() => expect(calls.filter((c) => c.path === '/nfc.index/stats').map((c) => c.body.days)).toEqual([7, 30]));
  });

  it('speaks Chinese by default and English after the language switch', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<NfcPage />, { route: '/nfc' });
    expect(await screen.findByTestId('tag-left-1')).toHaveTextContent('剩余 3/20');
    expect(screen.getByTestId('page-title')).toHaveTextContent('NFC 碰一碰');
    expect(screen.getByTestId('tag-add')).toHaveTextContent('新建标签');
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    expect(screen.getByTestId('page-title')).toHaveTextContent('NFC tap-to-post');
    expect(screen.getByTestId('tag-add')).toHaveTextContent('New tag');
    await waitFor(() => expect(screen.getByTestId('tag-left-1')).toHaveTextContent('3/20 left'));
  });
});
