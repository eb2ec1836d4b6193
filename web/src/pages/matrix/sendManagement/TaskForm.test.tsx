import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { merchantToday } from '@/utils/format';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/api/matrix/types';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { stashReleaseTitles, stashReleaseTopics } from './handoff';
import TaskForm from './TaskForm';

beforeAll(async () => {
  // antd forms validate asynchronously; the machine is shared with builds
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const acc = (id: number, over: Partial<Account> = {}) => ({ id, platform: 'dy', nickname: `acc-${id}`, avatar: null, status: 'active', expires_at: Date.UTC(2030, 0, 1), ...over }) as Account;
const video = (id: number, source: 'library' | 'material', used = false) => ({ key: `${source}:${id}`, id, source, name: `${source}-${id}.mp4`, cover: null, src: null, duration_ms: 15000, used, project_id: 1 });
const PLAN = {
  items: [
    { account_id: 1, nickname: 'acc-1', platform: 'dy', video_key: 'v:10', video_name: 'library-10.mp4', at: Date.UTC(2030, 0, 2, 2, 0), title: 'Spring sale' },
    { account_id: 3, nickname: 'acc-3', platform: 'dy', video_key: 'm:7', video_name: 'material-7.mp4', at: Date.UTC(2030, 0, 2, 3, 0), title: 'New arrivals' },
  ],
  count: 3,
  per_account: { min: 1, max: 2 },
  first_at: Date.UTC(2030, 0, 2, 2, 0),
  last_at: Date.UTC(2030, 0, 3, 2, 0),
  unplaced: 0,
  warnings: ['One account expires before its last item'],
};

let sent: { path: string; body: Record<string, unknown> }[];
let feedback: ReturnType<typeof spyFeedback>;
let refuse: { field: string; message: string } | null;
let limits: Record<string, unknown>;

beforeEach(() => {
  sent = [];
  refuse = null;
  limits = { title_max: 50, comment_max: 30, comment_pick: 5, per_account_day: 3, sources: '' };
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    sent.push({ path, body });
    if (path.endsWith('/dy_forward_config'))
      return ok({ platform: 'dy', limits, mount_types: ['poi', 'mini_program', 'official', 'product'], accounts: [], sandbox: false });
    if (path.endsWith('/getAccountGroup'))
      return ok({
        rows: [
          { id: 5, name: 'East', accounts: [acc(1), acc(2, { status: 'expired' }), acc(3, { status: 'expiring' }), acc(4, { platform: 'ks' })] },
          { id: 0, name: '', accounts: [acc(6)] },
        ],
      });
    if (path.endsWith('/getATUsers')) return ok({ rows: [{ id: 1, platform: 'dy', nickname: 'brand' }] });
    if (path.endsWith('/forward_video'))
      return ok(body.source === 'material' ? { rows: [video(7, 'material')], total: 1 } : { rows: [video(10, 'library'), video(11, 'library'), video(12, 'library', true)], total: 3 });
    if (path.endsWith('/getRandomTopicList')) return ok({ rows: ['#spring', 'sale'], source: { kind: 'built_in', model: '', fallback_reason: 'the AI service answered 429: Rate limit reached' } });
    if (path.endsWith('/getRandomAiTitleList')) return ok({ rows: ['Fresh picks'], source: { kind: 'llm', model: 'sbx-chat', fallback_reason: '' } });
    if (path === '/screen.merchant_seo_lexicon/ai_title')
      return ok({ rows: [{ title: 'Spring picks for you', style: 'offer', style_name: 'Offer', score: 80, keywords: ['spring'] }], keywords: [], topics: [], provider: 'builtin' });
    if (path.endsWith('/dy_add')) {
      if (refuse) return json({ code: 422, message: refuse.message, data: { field: refuse.field } }, 422);
      if (body.preview) return ok(PLAN);
      return ok({ task: { id: 99, name: body.name, review_state: 'reviewing', review_due_at: Date.UTC(2030, 0, 1, 6), counts: { total: 3 } }, plan: PLAN });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const next = () => fireEvent.click(screen.getByTestId('step-next'));
const pane = (i: number) => screen.getByTestId(`task-step-${i}`);
const shown = (i: number) => expect(pane(i)).toHaveStyle({ display: 'block' });
const wait = { timeout: 5000 };

describe('new release task', { timeout: 120_000 }, () => {
  it('walks the steps with the SPEC rules, previews the plan and sends exactly the TaskReq; a 422 shows at its field', async () => {
    const onCreated = vi.fn();
    renderPage(<TaskForm open onClose={() => undefined} onCreated={onCreated} />, { route: '/send_management' });

    // 1: platform and accounts — only active / expiring accounts of DY
    fireEvent.change(await screen.findByTestId('task-name'), { target: { value: 'Spring week' } });
    await screen.findByTestId('account-check-1');
    expect(screen.getByTestId('account-check-2')).toBeDisabled();
    expect(screen.queryByTestId('account-check-4')).toBeNull();
    next();
    expect(await screen.findByText('Select at least one account')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('account-check-1'));
    fireEvent.click(screen.getByTestId('account-check-3'));
    expect(screen.getByTestId('accounts-chosen')).toHaveTextContent('2 selected');
    next();
    await waitFor(() => shown(1), wait);

    // 2: videos — accounts must not exceed videos; used ones cannot be picked
    fireEvent.click(await screen.findByTestId('video-card-v:10'));
    expect(screen.getByTestId('video-used-v:12')).toHaveTextContent('Used');
    fireEvent.click(screen.getByTestId('video-card-v:12'));
    expect(screen.getByTestId('video-card-v:12')).toHaveAttribute('data-selected', 'false');
    next();
    expect(await screen.findByText('2 accounts need at least 2 videos (1 selected): the accounts must not exceed the videos')).toBeInTheDocument();
    shown(1);
    fireEvent.click(screen.getByText('Uploaded videos'));
    fireEvent.click(await screen.findByTestId('video-card-m:7'));
    fireEvent.click(screen.getByText('Finished videos'));
    fireEvent.click(await screen.findByTestId('video-card-v:11'));
    expect(screen.getByTestId('videos-chosen')).toHaveTextContent('3 selected (2 finished, 1 uploaded)');
    next();
    await waitFor(() => shown(2), wait);

    // 3: content — titles by #, each ≤ 50; topics required; comment lines ≤ 30 without contact details
    fireEvent.change(screen.getByTestId('task-titles'), { target: { value: `Spring sale#${'x'.repeat(51)}` } });
    expect(await screen.findByTestId('title-count-1')).toHaveAttribute('data-length', '11');
    expect(screen.getByTestId('title-count-2')).toHaveTextContent('51/50');
    fireEvent.change(screen.getByTestId('task-comments'), { target: { value: 'Nice\nAdd vx: shop_owner88 for coupons' } });
    expect(await screen.findByTestId('comment-problem-2')).toHaveTextContent('Line 2: 32 characters (at most 30)');
    fireEvent.change(screen.getByTestId('task-comments'), { target: { value: 'Nice\n加微信 abc_12345' } });
    await waitFor(() => expect(screen.getByTestId('comment-problem-2')).toHaveTextContent('Line 2: no contact details or links (WeChat id)'));
    next();
    expect(await screen.findByText('Title 2 has 51 characters (at most 50)')).toBeInTheDocument();
    expect(await screen.findByText('Add at least one topic')).toBeInTheDocument();
    expect(await screen.findByText('Fix the top comments on line(s) 2')).toBeInTheDocument();
    shown(2);
    fireEvent.change(screen.getByTestId('task-titles'), { target: { value: 'Spring sale#New arrivals' } });
    fireEvent.click(screen.getByTestId('titles-random'));
    await waitFor(() => expect(screen.getByTestId('task-titles')).toHaveValue('Spring sale#New arrivals#Fresh picks'));
    // Who wrote them: the AI service's model; the topics' writer fell back and says why.
    expect(screen.getByTestId('titles-writer')).toHaveTextContent('LLM: sbx-chat');
    fireEvent.click(screen.getByTestId('topics-random'));
    await waitFor(() => expect(screen.getByTestId('task-step-2')).toHaveTextContent('spring'));
    expect(screen.getByTestId('topics-writer')).toHaveTextContent('Built-in');
    expect(screen.getByTestId('topics-writer')).toHaveAttribute('data-reason', 'the AI service answered 429: Rate limit reached');
    fireEvent.change(screen.getByTestId('task-comments'), { target: { value: 'Nice\n\nGreat deal' } });
    await waitFor(() => expect(screen.queryByTestId('comment-problem-2')).toBeNull());
    next();
    await waitFor(() => shown(3), wait);

    // 4: schedule — the rules shown live, then the plan
    await waitFor(() => expect(screen.getByTestId('task-counts')).toHaveTextContent('2 account(s), 3 video(s); the schedule fits 14 (1 a day × 7 day(s) per account)'));
    expect(screen.getByTestId('daily-hint')).toHaveTextContent('At most 3 videos per account per day');
    fireEvent.change(screen.getByTestId('task-publish-count'), { target: { value: '4' } });
    await waitFor(() => expect(screen.getByTestId('task-counts')).toHaveAttribute('data-problem', 'publishOverVideos'));
    fireEvent.click(screen.getByTestId('plan-preview'));
    // Shown at the field and in the step's summary alert.
    expect((await screen.findAllByText('The publish count (4) must not exceed the selected videos (3)')).length).toBeGreaterThan(0);
    expect(sent.some((s) => s.path.endsWith('/dy_add'))).toBe(false);
    fireEvent.change(screen.getByTestId('task-publish-count'), { target: { value: '' } });

    fireEvent.click(screen.getByTestId('plan-preview'));
    expect(await screen.findByTestId('plan-count')).toHaveTextContent('3');
    expect(screen.getByTestId('plan-warning-0')).toHaveTextContent('One account expires before its last item');
    expect(screen.getByTestId('plan-view')).toHaveTextContent('library-10.mp4');
    const today = merchantToday().format('YYYY-MM-DD');
    const expected = {
      name: 'Spring week',
      titles: 'Spring sale#New arrivals#Fresh picks',
      topics: ['spring', 'sale'],
      top_comments: 'Nice\nGreat deal',
      at_users: [],
      mount_type: 'none',
      declaration: 'auto',
      province: '',
      city: '',
      merchant_abbr: '',
      poi_id: '',
      poi_name: '',
      poi_address: '',
      mini_app_id: '',
      mini_app_title: '',
      mini_app_url: '',
      official_title: '',
      official_url: '',
      product_id: '',
      time_mode: 'random',
      start_date: today,
      daily_quantity: 1,
      days: 7,
      times: [],
      account_ids: [1, 3],
      video_ids: [10, 11],
      material_ids: [7],
    };
    const previewCall = sent.find((s) => s.path === '/task.merchant_forward_task/dy_add')!;
    expect(previewCall.body).toEqual({ ...expected, preview: true });

    // the server refuses a comment line: shown at the field, on its step
    refuse = { field: 'top_comments', message: 'Line 2 carries contact details' };
    fireEvent.click(screen.getByTestId('task-confirm'));
    expect(await screen.findByText('Line 2 carries contact details')).toBeInTheDocument();
    await waitFor(() => shown(2), wait);
    expect(within(pane(2)).getByText('Line 2 carries contact details')).toBeInTheDocument();
    expect(onCreated).not.toHaveBeenCalled();
    expect(feedback.error).not.toHaveBeenCalled();

    refuse = null;
    fireEvent.click(screen.getByTestId('step-next'));
    await waitFor(() => shown(3), { timeout: 5000 });
    fireEvent.click(screen.getByTestId('task-confirm'));
    await waitFor(() => expect(onCreated).toHaveBeenCalled());
    const created = sent.filter((s) => s.path === '/task.merchant_forward_task/dy_add').at(-1)!;
    expect(created.body).toEqual(expected);
    expect(onCreated.mock.calls[0][0]).toMatchObject({ id: 99, review_state: 'reviewing' });
  });

  it('shows the platform\'s own limits beside the topics and counts titles against them', async () => {
    limits = { title_max: 30, comment_max: 30, comment_pick: 5, per_account_day: 3, topics_max: 5, sources: 'creator console' };
    renderPage(<TaskForm open onClose={() => undefined} onCreated={() => undefined} />, { route: '/send_management' });
    expect(await screen.findByTestId('platform-limits')).toHaveTextContent("Douyin's own limits: title ≤ 30 characters, topics ≤ 5");
    fireEvent.change(screen.getByTestId('task-titles'), { target: { value: 'x'.repeat(31) } });
    expect(await screen.findByTestId('title-count-1')).toHaveTextContent('31/30');
  });

  it('fills in the topics handed over by the hot lists', async () => {
    stashReleaseTopics(['#城市烟火气']);
    stashReleaseTopics(['探店', '城市烟火气']);
    renderPage(<TaskForm open onClose={() => undefined} onCreated={() => undefined} />, { route: '/send_management' });
    expect(await screen.findByTestId('task-handed-topics')).toHaveTextContent('2 topic(s) from the hot lists were filled in');
    const topics = screen.getByTestId('task-topics');
    expect(topics).toHaveTextContent('城市烟火气');
    expect(topics).toHaveTextContent('探店');
  });

  it('fills in the titles handed over by the SEO page, and adds titles from the title engine', async () => {
    stashReleaseTitles(['From SEO one', 'From SEO two']);
    renderPage(<TaskForm open onClose={() => undefined} onCreated={() => undefined} />, { route: '/send_management' });
    expect(await screen.findByTestId('task-handed-titles')).toHaveTextContent('2 title(s) from the SEO page were filled in');
    expect(screen.getByTestId('task-titles')).toHaveValue('From SEO one#From SEO two');

    fireEvent.click(screen.getByTestId('titles-generate'));
    fireEvent.click(await screen.findByTestId('pick-generate', undefined, wait));
    await waitFor(() => expect(sent.find((c) => c.path === '/screen.merchant_seo_lexicon/ai_title')?.body).toMatchObject({ count: 10, max_chars: 50, lang: 'en' }), wait);
    fireEvent.click(within(await screen.findByTestId('pick-row-Spring picks for you')).getByRole('checkbox'));
    fireEvent.click(screen.getByTestId('pick-insert'));
    await waitFor(() => expect(screen.getByTestId('task-titles')).toHaveValue('From SEO one#From SEO two#Spring picks for you'));
  });
});
