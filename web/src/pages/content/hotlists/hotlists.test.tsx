import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { HotBoard, HotRow } from '@/api/content/types';
import i18n from '@/i18n';
import { matchMusic, takeMixMusic } from '@/pages/clip/normalMode/handoff';
import { takeReleaseTopics } from '@/pages/matrix/sendManagement/handoff';
import { mockFetch, ok, renderPage } from '@/test/utils';
import { changeKind, songLength } from './boards';
import HotListPage from '.';

const row = (rank: number, over: Partial<HotRow> = {}): HotRow => ({
  rank,
  title: `row ${rank}`,
  author: '',
  cover: '',
  share_url: '',
  heat: 1000 - rank,
  plays: 0,
  likes: 0,
  comments: 0,
  duration: 0,
  followers: 0,
  rank_change: '',
  label: '',
  hot_words: [],
  videos: [],
  ...over,
});

const board = (name: string, rows: HotRow[], over: Partial<HotBoard> = {}): HotBoard => ({
  board: name,
  boards: [name],
  platform: 'dy',
  day: '2026-11-26',
  fetched_at: Date.UTC(2026, 10, 26, 2),
  last_error: '',
  simulated: false,
  rows,
  ...over,
});

let calls: { path: string; query: URLSearchParams }[];
let answer: (path: string, query: URLSearchParams) => HotBoard;

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  calls = [];
  answer = (path) => board(path, []);
  sessionStorage.clear();
  mockFetch((url) => {
    const path = url.pathname.replace('/api', '');
    calls.push({ path, query: url.searchParams });
    return ok(answer(path, url.searchParams));
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
});

describe('hot-list pages', { timeout: 60_000 }, () => {
  it('/hottopic lists topics with their rank change and hands a topic to a new release task', async () => {
    answer = () =>
      board('topic', [row(1, { title: '城市烟火气', rank_change: '+3' }), row(2, { title: '探店日记', rank_change: 'new' }), row(3, { title: '周末去哪儿', rank_change: '-2' })]);
    renderPage(<HotListPage />, { route: '/hottopic' });
    expect(await screen.findByText('#城市烟火气')).toBeInTheDocument();
    expect(calls[0].path).toBe('/content.hot_list/topic_index');
    expect(screen.getByText('New')).toBeInTheDocument();
    expect(screen.getByTestId('hot-meta')).toHaveTextContent('Douyin · data of 2026-11-26');
    fireEvent.click(screen.getByTestId('hot-use-topic-1'));
    expect(takeReleaseTopics()).toEqual(['城市烟火气']);
  });

  it('/hotmusic switches between its boards and hands a song to a new mix', async () => {
    answer = (_, q) =>
      q.get('board') === 'music_soar'
        ? board('music_soar', [row(1, { title: '夏天的汽水', author: '橘子乐队', duration: 25 })])
        : board('music_hot', [row(1, { title: '晚风吹过街角', author: '林小满', duration: 92 })]);
    renderPage(<HotListPage />, { route: '/hotmusic' });
    expect(await screen.findByText('晚风吹过街角')).toBeInTheDocument();
    expect(screen.getByText('1:32')).toBeInTheDocument();
    fireEvent.click(screen.getByText('Rising'));
    expect(await screen.findByText('夏天的汽水')).toBeInTheDocument();
    expect(calls.at(-1)!.query.get('board')).toBe('music_soar');
    fireEvent.click(screen.getByTestId('hot-use-music-1'));
    expect(takeMixMusic()).toEqual({ title: '夏天的汽水', author: '橘子乐队' });
  });

  it('/hotvideo hands a video’s hot words; a failed read and a board not read yet say so', async () => {
    answer = () => board('hot_video', [row(1, { title: '排队两小时的火锅', hot_words: ['火锅', '探店'], plays: 3000, likes: 90 })], { last_error: 'quota used up' });
    renderPage(<HotListPage />, { route: '/hotvideo' });
    expect(await screen.findByText('#火锅')).toBeInTheDocument();
    expect(screen.getByTestId('hot-failed')).toHaveTextContent('The last read failed: quota used up');
    // Read from the real platform: no Simulated badge.
    expect(screen.queryByTestId('hot-simulated')).toBeNull();
    fireEvent.click(screen.getByTestId('hot-use-topic-1'));
    expect(takeReleaseTopics()).toEqual(['火锅', '探店']);
  });

  it('marks a board the sandbox answered as simulated', async () => {
    answer = () => board('hot_video', [row(1, { title: '排队两小时的火锅' })], { simulated: true });
    renderPage(<HotListPage />, { route: '/hotvideo' });
    expect(await screen.findByTestId('hot-simulated')).toHaveTextContent('Simulated');
    expect(screen.getByTestId('hot-simulated').dataset.source).toBe('sandbox');
  });

  it('shows that a board is being read when the cache is empty', async () => {
    answer = () => board('stars', [], { fetched_at: 0, day: '' });
    renderPage(<HotListPage />, { route: '/doyen' });
    expect(await screen.findByTestId('hot-pending')).toBeInTheDocument();
    await waitFor(() => expect(calls[0].path).toBe('/content.hot_list/doyen_index'));
  });

  it('in Chinese the page speaks Chinese', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      answer = () => board('keywords', [row(1, { title: '夏日第一杯奶茶', label: '热' })]);
      renderPage(<HotListPage />, { route: '/keywords' });
      expect(await screen.findByText('夏日第一杯奶茶')).toBeInTheDocument();
      expect(screen.getByTestId('hot-use-topic-1')).toHaveTextContent('用作话题');
      expect(screen.getByTestId('hot-meta')).toHaveTextContent('抖音');
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});

describe('hot-list helpers', () => {
  it('read rank changes and song lengths', () => {
    expect(changeKind('+3')).toBe('up');
    expect(changeKind('-1')).toBe('down');
    expect(changeKind('0')).toBe('same');
    expect(changeKind('new')).toBe('new');
    expect(changeKind('')).toBeNull();
    expect(songLength(61)).toBe('1:01');
  });

  it('finds a handed song in the library by its title', () => {
    const rows = [{ name: 'my track.mp3' }, { name: '夏天的汽水 (live).m4a' }];
    expect(matchMusic(rows, { title: '夏天的 汽水', author: '' })).toBe(rows[1]);
    expect(matchMusic(rows, { title: '晚风', author: '' })).toBeUndefined();
  });
});
