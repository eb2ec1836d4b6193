import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@/api/auth/types';
import i18n from '@/i18n';
import { clearSession, saveLogin } from '@/store/session';
import { merchantUser, operatorUser, staffUser } from '@/test/users';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import DashboardPage, { DASHBOARD_GRID } from '.';
import { charts } from '@/test/echarts';

const days = ['2026-11-16', '2026-11-17', '2026-11-18', '2026-11-19', '2026-11-20', '2026-11-21', '2026-11-22'];

function dashboard(hasData: boolean) {
  return {
    points: 1234,
    publish: { days, success: days.map(() => (hasData ? 2 : 0)), failed: days.map(() => 0) },
    video: { days, plays: days.map(() => (hasData ? 10 : 0)), likes: days.map(() => 0) },
    has_publish_data: hasData,
    has_video_data: hasData,
  };
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
});
afterEach(() => {
  clearSession();
  vi.unstubAllGlobals();
  setFeedback(null);
});

function serve(hasData: boolean) {
  return mockFetch((url) => {
    if (url.pathname === '/api/index/dashboard') return ok(dashboard(hasData));
    if (url.pathname === '/api/content.hot_list/keywords_index')
      return ok({ page: 'keywords', board: 'hot_search', fetched_at: 1, reason: '', rows: [{ rank: 1, title: '围炉煮茶', label: '热', heat: 900, rank_change: 0 }] });
    if (url.pathname === '/api/version_log/getList') return ok({ rows: [{ id: 1, version: '1.6.9', content: 'Console foundation', created_at: 0 }], total: 1 });
    return ok({});
  });
}

/** The points card as `user` sees it (the server answers 1,234 either way). */
async function pointsCard(user: UserRecord) {
  saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user });
  serve(false);
  renderPage(<DashboardPage />, { route: '/dashboard', path: '/dashboard' });
  const card = await screen.findByTestId('dashboard-points');
  await waitFor(() => expect(card).toHaveTextContent('1,234'));
  return card;
}

describe('dashboard', () => {
  it('uses the [12, 6, 6] grid', () => {
    expect(DASHBOARD_GRID).toEqual([12, 6, 6]);
  });

  it('shows points, the update log and empty charts without data', async () => {
    serve(false);
    renderPage(<DashboardPage />, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByText('1,234')).toBeInTheDocument();
    expect(await screen.findByText('No publishing data yet')).toBeInTheDocument();
    expect(screen.getByText('No video data yet')).toBeInTheDocument();
    expect(await screen.findByText('Console foundation')).toBeInTheDocument();
    expect(charts.init).not.toHaveBeenCalled();
  });

  it('draws both charts when there is data', async () => {
    serve(true);
    renderPage(<DashboardPage />, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('chart-publish')).toBeInTheDocument();
    expect(screen.getByTestId('chart-video')).toBeInTheDocument();
    await waitFor(() => expect(charts.init).toHaveBeenCalledTimes(2));
  });

  it("a merchant's card is its own points balance", async () => {
    const card = await pointsCard(merchantUser);
    expect(card).toHaveTextContent('Points remaining');
    expect(card.querySelector('a')).toHaveAttribute('href', '/useRecord');
  });

  it("the operator's card is not a merchant's balance: it names the merchants' total and links to them", async () => {
    const card = await pointsCard(operatorUser);
    expect(card).toHaveTextContent('Points held by merchants');
    expect(card).toHaveTextContent('an operator account has no points of its own');
    expect(card).not.toHaveTextContent('Points remaining');
    expect(card.querySelector('a')).toHaveAttribute('href', '/system/merchant');
  });

  it('switches the charts to the last 30 days', async () => {
    const fetch = serve(true);
    renderPage(<DashboardPage />, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByText('Publishing, last 7 days')).toBeInTheDocument();
    fireEvent.click(screen.getByText('30 days'));
    expect(await screen.findByText('Publishing, last 30 days')).toBeInTheDocument();
    const asked = fetch.mock.calls.map(([u]) => new URL(String(u), 'http://localhost')).filter((u) => u.pathname === '/api/index/dashboard');
    expect(asked.map((u) => u.searchParams.get('days'))).toEqual(['7', '30']);
  });

  it("shows today's hot searches to a user whose menus grant them, and not to one without", async () => {
    saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user: merchantUser });
    serve(false);
    const { unmount } = renderPage(<DashboardPage />, { route: '/dashboard', path: '/dashboard' });
    const hot = await screen.findByTestId('dashboard-hot');
    await waitFor(() => expect(hot).toHaveTextContent('围炉煮茶'));
    expect(hot.querySelector('a')).toHaveAttribute('href', '/keywords');
    unmount();
    clearSession();
    saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user: staffUser });
    const fetch = serve(false);
    renderPage(<DashboardPage />, { route: '/dashboard', path: '/dashboard' });
    expect(await screen.findByTestId('dashboard-points')).toBeInTheDocument();
    expect(screen.queryByTestId('dashboard-hot')).toBeNull();
    expect(fetch.mock.calls.some(([u]) => String(u).includes('hot_list'))).toBe(false);
  });
});
