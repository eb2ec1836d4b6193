import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it } from 'vitest';
import type { Benchmark } from '@/api/seo/types';
import { json } from '@/test/utils';
import { bodiesOf, inputOf, renderAt, setupSeoPage } from '../testing';
import AccountSeePage from '.';
import { charts } from '@/test/echarts';

const bench = (id: number, over: Partial<Benchmark> = {}): Benchmark => ({
  id,
  platform: 'dy',
  account_id: `a${id}`,
  nickname: `Rival ${id}`,
  avatar: '',
  share_url: '',
  followers: 1200,
  likes: 3400,
  works: 56,
  posts_7d: 7,
  plays_7d: 89000,
  last_sync_at: Date.UTC(2026, 0, 2),
  last_error: '',
  created_at: 0,
  source: 'sandbox',
  ...over,
});

let refuse = false;
const ctx = setupSeoPage((path, body) => {
  if (path === '/seo.benchmark/index') return { rows: [bench(1), bench(2, { last_error: 'account is private', source: 'tikhub' })], total: 2 };
  if (path === '/seo.benchmark/add') return refuse ? json({ code: 422, message: 'Not a share link', data: { field: 'link' } }, 422) : bench(3, { nickname: 'New rival' });
  if (path === '/seo.benchmark/sync') return bench(Number(body.id));
  if (path === '/seo.benchmark/info')
    return {
      ...bench(1),
      series: [
        { day: '2026-01-01', followers: 1000, works: 50, plays: 4000, likes: 10 },
        { day: '2026-01-02', followers: 1200, works: 56, plays: 9000, likes: 20 },
      ],
      top: [{ work_id: 'w1', title: 'Our secret broth', create_time: 0, plays: 50000, likes: 900, comments: 30, shares: 4 }],
      words: [{ word: 'broth', weight: 5 }, { word: 'spicy', weight: 2 }],
      per_day: 1.5,
    };
  return undefined;
  });
beforeEach(() => {
  refuse = false;
});

describe('/account_see', { timeout: 60_000 }, () => {
  it('lists the accounts with their figures and last sync; sync now and delete', async () => {
    renderAt(<AccountSeePage />, '/account_see');
    expect(await screen.findByTestId('bench-name-1')).toHaveTextContent('Rival 1');
    // Each account says where its figures come from: simulated (sandbox) or the vendor.
    expect(screen.getByTestId('bench-source-1')).toHaveTextContent('Simulated');
    expect(screen.getByTestId('bench-source-2')).toHaveTextContent('Source: TikHub');
    expect(screen.getByTestId('benchmarks-row-1')).toHaveTextContent('89000');
    expect(screen.getByTestId('benchmarks-row-2')).toHaveTextContent('Douyin');
    expect(screen.getByTestId('bench-error-2')).toHaveTextContent('Sync failed');
    fireEvent.click(screen.getByTestId('bench-sync-1'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.benchmark/sync')).toEqual([{ id: 1 }]));
    await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('"Rival 1" synced'));
    fireEvent.click(screen.getByTestId('bench-delete-2'));
    fireEvent.click(await screen.findByTestId('bench-delete-ok-2'));
    await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.benchmark/delete')).toEqual([{ id: 2 }]));
  });

  it('the add dialog posts the platform and the link; a 422 lands on the link', async () => {
    renderAt(<AccountSeePage />, '/account_see');
    fireEvent.click(await screen.findByTestId('bench-add'));
    fireEvent.change(inputOf('bench-form-link'), { target: { value: '  https://v.douyin.com/abc/  ' } });
    refuse = true;
    fireEvent.click(screen.getByTestId('bench-form-ok'));
    expect(await within(screen.getByTestId('bench-form-form')).findByText('Not a share link')).toBeInTheDocument();
    refuse = false;
    // benchmarks are Douyin accounts only (the server refuses any other platform)
    expect(within(screen.getByTestId('bench-form-platform')).queryByText('Kuaishou')).toBeNull();
    fireEvent.click(screen.getByTestId('bench-form-ok'));
    await waitFor(() =>
      expect(bodiesOf(ctx.calls, '/seo.benchmark/add')).toEqual([
        { platform: 'dy', link: 'https://v.douyin.com/abc/' },
        { platform: 'dy', link: 'https://v.douyin.com/abc/' },
      ]),
    );
    await waitFor(() => expect(ctx.feedback.success).toHaveBeenCalledWith('Added "New rival"'));
  });

  it('the detail: figures, a chart over time, top videos and title words', async () => {
    renderAt(<AccountSeePage />, '/account_see');
    fireEvent.click(await screen.findByTestId('bench-view-1'));
    expect(await screen.findByTestId('bench-top-w1')).toHaveTextContent('Our secret broth');
    expect(bodiesOf(ctx.calls, '/seo.benchmark/info')).toEqual([{ id: 1 }]);
    expect(screen.getByTestId('bench-figure-per_day')).toHaveTextContent('1.5');
    expect(screen.getByTestId('bench-figure-followers')).toHaveTextContent('1,200');
    expect(screen.getByTestId('bench-words-broth')).toBeInTheDocument();
    expect(await screen.findByTestId('bench-chart')).toBeInTheDocument();
    await waitFor(() => expect(charts.setOption).toHaveBeenCalled());
    const option = charts.setOption.mock.calls[0][0] as { series: { name: string; data: number[] }[] };
    expect(option.series.map((s) => [s.name, s.data])).toEqual([
      ['Followers', [1000, 1200]],
      ['Works', [50, 56]],
      ['Plays', [4000, 9000]],
    ]);
  });
});
