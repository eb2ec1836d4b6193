import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { filterParams } from '@/api/reports';
import i18n from '@/i18n';
import { clearSession, saveLogin } from '@/store/session';
import { operatorUser } from '@/test/users';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import AnalyticsPage from './analytics';
import DataScreenPage, { SCREEN_REFRESH_MS } from './screen';
import { chinaGeoJson } from './screen/chinaMap';
import { progressOption, provinceName, regionMapOption, regionOption } from './screen/options';
import { compareOption, dailyOption, followersOption, rankOption } from './shared/options';
import AttributionPage from './special/attribution';
import DeliveryPage from './special/delivery';
import { charts } from '@/test/echarts';

const days = ['2026-11-20', '2026-11-21', '2026-11-22'];
const series = {
  days,
  posts: [1, 2, 0],
  failed: [0, 1, 0],
  plays: [100, 250, 40],
  likes: [5, 12, 2],
  comments: [1, 0, 0],
  shares: [0, 1, 0],
  followers: [1000, 1010, 1031],
  follower_gain: [0, 10, 21],
};
const totals = { posts: 3, failed: 1, plays: 390, likes: 19, comments: 1, shares: 1, followers: 1031, follower_gain: 31 };
const overview = {
  platform: 'ks',
  start: days[0],
  end: days[2],
  previous_start: '2026-11-17',
  previous_end: '2026-11-19',
  accounts: 4,
  active_accounts: 3,
  simulated_accounts: 0,
  series,
  totals,
  previous: { ...totals, plays: 300 },
  change: [
    { figure: 'posts', pct: 0 },
    { figure: 'plays', pct: 30 },
    { figure: 'likes', pct: null },
    { figure: 'comments', pct: -50 },
    { figure: 'shares', pct: null },
    { figure: 'followers', pct: 3 },
    { figure: 'follower_gain', pct: 55 },
  ],
  has_followers: true,
};
const video = { id: 9, task_id: 1, account_id: 2, nickname: '小店', platform: 'ks' as const, title: '春天的第一杯奶茶', video_key: 'v:1', video_name: 'v1', share_url: '', published_at: 0, plays: 250, likes: 12, comments: 0, shares: 1 };
const screenData = {
  accounts: 12,
  active_accounts: 11,
  week: { ...series, posts: [1, 2, 5] },
  week_totals: totals,
  today_planned: 10,
  today_published: 6,
  today_failed: 1,
  today_posts: 5,
  today_posts_other_days: 0,
  regions: [{ province: '浙江省', accounts: 3, plays: 900 }],
  top: [video],
  updated_at: 0,
};

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

function serve(o: object = overview, screenReply: object = screenData) {
  return mockFetch((url) => {
    switch (url.pathname) {
      case '/api/common.merchant_report/overview':
        return ok(o);
      case '/api/system/merchant/index':
        return ok({ rows: [{ id: 7, name: '七号店', username: 'shop7' }], total: 1 });
      case '/api/common.merchant_report/accounts':
        return ok({ rows: [{ account_id: 2, nickname: '小店', platform: 'ks', avatar: '', province: '', sandbox: o === overview ? false : true, posts: 3, failed: 0, plays: 390, likes: 19, comments: 1, shares: 1, followers: 1031, follower_gain: 31 }], total: 1 });
      case '/api/common.merchant_report/videos':
        return ok({ rows: [video], total: 1 });
      case '/api/common.merchant_report/attribution':
        return ok({ rows: [{ id: 5, label: '门头 red', posts: 3, plays: 390, likes: 19, per_post: 130 }], total: 1 });
      case '/api/common.merchant_report/delivery':
        return ok({
          rows: [
            { task_id: 1, name: '三天发布', platform: 'dy', created_at: 0, planned: 3, published: 2, failed: 1, rejected: 0, plays: 390, reasons: [{ reason: 'Account authorization expired', count: 1 }] },
            { task_id: 2, name: '全平台', platform: 'mixed', created_at: 0, planned: 2, published: 0, failed: 0, rejected: 0, plays: 0, reasons: [] },
          ],
          total: 2,
        });
      case '/api/databoard.index/index':
        return ok(screenReply);
      default:
        return ok({});
    }
  });
}

const calls = (fetch: ReturnType<typeof serve>, path: string) =>
  fetch.mock.calls.map(([u]) => new URL(String(u), 'http://localhost')).filter((u) => u.pathname === `/api${path}`);

describe('report options', () => {
  const t = (k: string) => k;
  it('daily chart: four figure lines and the posts as bars on their own axis', () => {
    const o = dailyOption(series, t) as { series: { type: string; data: number[]; yAxisIndex?: number }[]; xAxis: { data: string[] } };
    expect(o.xAxis.data).toEqual(['11-20', '11-21', '11-22']);
    expect(o.series.map((s) => s.type)).toEqual(['line', 'line', 'line', 'line', 'bar']);
    expect(o.series[4]).toMatchObject({ data: [1, 2, 0], yAxisIndex: 1 });
  });
  it('compare chart: previous then current, figure by figure', () => {
    const o = compareOption(totals, { ...totals, plays: 300 }, t) as { series: { data: number[] }[] };
    expect(o.series[0].data[1]).toBe(300);
    expect(o.series[1].data[1]).toBe(390);
  });
  it('ranking: the best ten, best on top, long labels cut', () => {
    const rows = Array.from({ length: 12 }, (_, i) => ({ label: `${'x'.repeat(20)}${i}`, value: 100 - i }));
    const o = rankOption(rows, 'plays') as { series: { data: number[] }[]; yAxis: { data: string[] } };
    expect(o.series[0].data).toHaveLength(10);
    expect(o.series[0].data.at(-1)).toBe(100);
    expect(o.yAxis.data[0].endsWith('…')).toBe(true);
  });
  it("screen: today's waiting posts and the regions", () => {
    const p = progressOption(screenData, t) as { series: { data: { value: number }[] }[] };
    expect(p.series[0].data.map((d) => d.value)).toEqual([6, 3, 1]);
    const r = regionOption(screenData, t) as { yAxis: { data: string[] } };
    expect(r.yAxis.data).toEqual(['浙江省']);
  });
  it("followers: the total as a line, the day's gain as bars on their own axis", () => {
    const o = followersOption(series, t) as { series: { type: string; data: number[]; yAxisIndex?: number }[] };
    expect(o.series.map((s) => s.type)).toEqual(['line', 'bar']);
    expect(o.series[0].data).toEqual([1000, 1010, 1031]);
    expect(o.series[1]).toMatchObject({ data: [0, 10, 21], yAxisIndex: 1 });
  });
  it("region map: provinces by the map's names, shaded up to the most played", () => {
    expect(['广东省', '北京市', '广西壮族自治区', '内蒙古自治区', '新疆维吾尔自治区', '宁夏回族自治区', '香港特别行政区', '浙江'].map(provinceName)).toEqual([
      '广东',
      '北京',
      '广西',
      '内蒙古',
      '新疆',
      '宁夏',
      '香港',
      '浙江',
    ]);
    const o = regionMapOption(screenData, t) as { series: { type: string; map: string; data: { name: string; value: number }[] }[]; visualMap: { max: number } };
    expect(o.series[0]).toMatchObject({ type: 'map', map: 'china', data: [{ name: '浙江', value: 900, accounts: 3 }] });
    expect(o.visualMap.max).toBe(900);
  });
  it("the bundled map of China has every province under the names the map option uses", () => {
    const names = chinaGeoJson().features.map((f) => f.properties.name);
    for (const p of ['北京', '广东', '浙江', '广西', '内蒙古', '新疆', '西藏', '台湾', '香港', '澳门']) expect(names).toContain(p);
    expect(names.length).toBeGreaterThanOrEqual(34);
    expect(() => chinaGeoJson('nothing here')).toThrow();
  });
  it('filters: custom dates only with a custom span', () => {
    expect(filterParams({ span: 'week', platform: 'dy', start: '2026-01-01', end: '2026-01-02' })).toEqual({ span: 'week', platform: 'dy' });
    expect(filterParams({ span: 'custom', start: '2026-01-01', end: '2026-01-02' })).toEqual({ span: 'custom', start: '2026-01-01', end: '2026-01-02' });
    expect(filterParams({ span: 'week', merchant_id: 7 })).toEqual({ span: 'week', merchant_id: '7' });
  });
});

describe('analytics page', () => {
  it('takes its platform from the path, shows the figures against the period before and draws the charts', async () => {
    const fetch = serve();
    renderPage(<AnalyticsPage />, { route: '/ks_num', path: '/ks_num' });
    expect(await screen.findByTestId('analytics-ks')).toBeInTheDocument();
    await waitFor(() => expect(screen.getByTestId('stat-plays')).toHaveTextContent('390'));
    expect(screen.getByText('+30%')).toBeInTheDocument();
    expect(screen.getByText('-50%')).toBeInTheDocument();
    expect(screen.getAllByText('Nothing in the previous period').length).toBe(2);
    expect(screen.getByTestId('stat-followers')).toHaveTextContent('1,031');
    expect(screen.getByTestId('stat-follower-gain')).toHaveTextContent('+31 in this period');
    expect(screen.getByText('+55%')).toBeInTheDocument();
    expect(await screen.findByTestId('chart-daily')).toBeInTheDocument();
    expect(screen.getByTestId('chart-compare')).toBeInTheDocument();
    expect(screen.getByTestId('chart-followers')).toBeInTheDocument();
    await waitFor(() => expect(charts.init).toHaveBeenCalledTimes(3));
    expect(await screen.findByText('小店')).toBeInTheDocument();
    expect(calls(fetch, '/common.merchant_report/overview')[0].searchParams.get('platform')).toBe('ks');
    expect(calls(fetch, '/common.merchant_report/accounts')[0].searchParams.get('span')).toBe('week');
  });

  it('figures of accounts authorized against the sandbox carry the Simulated badge; real ones do not', async () => {
    serve({ ...overview, simulated_accounts: 2 });
    renderPage(<AnalyticsPage />, { route: '/ks_num', path: '/ks_num' });
    expect(await screen.findByTestId('report-simulated')).toHaveTextContent('Simulated');
    expect(await screen.findByTestId('account-simulated-2')).toHaveTextContent('Simulated');
  });

  it('real figures carry no Simulated badge', async () => {
    serve();
    renderPage(<AnalyticsPage />, { route: '/ks_num', path: '/ks_num' });
    expect(await screen.findByText('小店')).toBeInTheDocument();
    expect(screen.queryByTestId('report-simulated')).toBeNull();
    expect(screen.queryByTestId('account-simulated-2')).toBeNull();
  });

  it('a platform that tells apps no follower count says so instead of showing 0', async () => {
    serve({ ...overview, platform: 'bjh', has_followers: false, totals: { ...totals, followers: 0, follower_gain: 0 } });
    renderPage(<AnalyticsPage />, { route: '/dy_num', path: '/dy_num' });
    await waitFor(() => expect(screen.getByTestId('stat-followers')).toHaveTextContent('—'));
    expect(screen.getAllByText('This platform tells apps no follower count, so none is shown').length).toBe(2);
    expect(screen.queryByTestId('chart-followers')).toBeNull();
  });

  it('the operator reads every merchant summed, or picks one', async () => {
    saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user: operatorUser });
    try {
      const fetch = serve();
      renderPage(<AnalyticsPage />, { route: '/dy_num', path: '/dy_num' });
      expect(await screen.findByTestId('report-all-merchants')).toHaveTextContent("Every merchant's figures, summed");
      await waitFor(() => expect(calls(fetch, '/common.merchant_report/overview').length).toBeGreaterThan(0));
      expect(calls(fetch, '/common.merchant_report/overview')[0].searchParams.get('merchant_id')).toBeNull();
      expect(screen.getByTestId('report-merchant-picker')).toBeInTheDocument();
    } finally {
      clearSession();
    }
  });

  it('a merchant gets no merchant picker', async () => {
    serve();
    renderPage(<AnalyticsPage />, { route: '/dy_num', path: '/dy_num' });
    expect(await screen.findByTestId('analytics-dy')).toBeInTheDocument();
    expect(screen.queryByTestId('report-merchant')).toBeNull();
  });

  it('a new span asks again with it', async () => {
    const fetch = serve();
    renderPage(<AnalyticsPage />, { route: '/dd_num', path: '/dd_num' });
    expect(await screen.findByTestId('analytics-dd')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Last 30 days'));
    await waitFor(() => expect(calls(fetch, '/common.merchant_report/overview').map((u) => u.searchParams.get('span'))).toContain('month'));
    expect(calls(fetch, '/common.merchant_report/overview')[0].searchParams.get('platform')).toBe('dd');
  });
});

describe('special reports', () => {
  it('attribution ranks by plays per post and switches the dimension', async () => {
    const fetch = serve();
    renderPage(<AttributionPage />, { route: '/xzsspecial', path: '/xzsspecial' });
    expect(await screen.findByText('门头 red')).toBeInTheDocument();
    expect(await screen.findByTestId('chart-attribution')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Voice-over'));
    await waitFor(() => expect(calls(fetch, '/common.merchant_report/attribution').map((u) => u.searchParams.get('dimension'))).toContain('voice'));
  });

  it('delivery lists planned against published with the reasons', async () => {
    serve();
    renderPage(<DeliveryPage />, { route: '/special', path: '/special' });
    expect(await screen.findByText('三天发布')).toBeInTheDocument();
    expect(screen.getByText('Account authorization expired ×1')).toBeInTheDocument();
    // platforms by name, a task over several platforms too (was the raw code "mixed")
    expect(screen.getByText('Several platforms')).toBeInTheDocument();
    expect(screen.queryByText('mixed')).toBeNull();
    expect(await screen.findByTestId('chart-delivery')).toBeInTheDocument();
  });
});

describe('data screen', () => {
  it('shows the live counters, today, regions and top videos, and refreshes itself', async () => {
    serve();
    renderPage(<DataScreenPage />, { route: '/actual_screen', path: '/actual_screen' });
    await waitFor(() => expect(screen.getByTestId('screen-accounts')).toHaveTextContent('12'));
    expect(screen.getByTestId('screen-today')).toHaveTextContent('5');
    expect(await screen.findByTestId('chart-screen-progress')).toBeInTheDocument();
    expect(screen.getByText('Due today 10: 6 published, 1 failed')).toBeInTheDocument();
    expect(screen.queryByTestId('screen-other-days')).toBeNull();
    expect(screen.getByText('春天的第一杯奶茶')).toBeInTheDocument();
    expect(screen.getByTestId('screen-followers')).toHaveTextContent('1,031');
    expect(screen.getByTestId('screen-follower-gain')).toHaveTextContent('21');
    // The provinces' map registers itself and replaces the bar chart.
    expect(await screen.findByTestId('chart-screen-map')).toBeInTheDocument();
    expect(charts.registerMap).toHaveBeenCalledWith('china', expect.objectContaining({ type: 'FeatureCollection' }));
    expect(SCREEN_REFRESH_MS).toBe(30_000);
  });

  it('says what each figure counts: every platform, and the posts published today that were due another day', async () => {
    serve(overview, { ...screenData, today_planned: 2, today_published: 1, today_failed: 0, today_posts: 6, today_posts_other_days: 5 });
    renderPage(<DataScreenPage />, { route: '/actual_screen', path: '/actual_screen' });
    await waitFor(() => expect(screen.getByTestId('screen-today')).toHaveTextContent('6'));
    // the week's plays are every platform's (/xhs_num shows Xiaohongshu's alone)
    expect(screen.getByRole('heading', { level: 1 })).toHaveTextContent('Matrix data screen · all platforms');
    expect(screen.getByText('Due today 2: 1 published, 0 failed')).toBeInTheDocument();
    expect(screen.getByTestId('screen-other-days')).toHaveTextContent('5 of the 6 posts published today were planned for another day');
  });
});
