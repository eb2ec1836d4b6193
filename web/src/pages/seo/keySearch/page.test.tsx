import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { SearchWord } from '@/api/seo/types';
import i18n from '@/i18n';
import { bodiesOf, renderAt, setupSeoPage, searchFor } from '../testing';
import KeySearchPage from '.';

const word = (w: string, over: Partial<SearchWord> = {}): SearchWord => ({ word: w, kind: 'long_tail', depth: 1, parent: '', heat: 12000, trend: [1, 2, 3, 4, 5, 6, 7], change: 0.25, collected: false, covered: 0, ...over });

const ctx = setupSeoPage((path, body) => {
  if (path === '/seo.merchant_keywords/search')
    return body.word === 'no source'
      ? { rows: [], source: 'none' }
      : { rows: [word(`${body.word} near me`, { covered: 2 }), word(`best ${body.word}`, { change: -0.1, collected: true })], source: 'sandbox' };
  if (path === '/seo.merchant_keywords/videos')
    return body.word === 'no source'
      ? { rows: [], source: 'none' }
      : { rows: [{ sec_item_id: '@v1', title: `${body.word} tonight`, cover: '', created_at: 0, share_url: 'http://x/v1', plays: 1234, likes: 5, comments: 1, shares: 0 }], source: 'sandbox' };
  if (path === '/seo.merchant_keywords/collect') return { id: 1, word: body.word, platform: body.platform, heat: body.heat, covered: 0, created_at: 0 };
  return undefined;
  });

describe('/key_search', { timeout: 60_000 }, () => {
  it('searches a seed on the chosen platform: related words with heat, trend, change, coverage; collect', async () => {
  renderAt(<KeySearchPage />, '/key_search');
  expect(screen.getByTestId('seed-empty')).toBeInTheDocument();
  expect(ctx.calls).toEqual([]);
  searchFor('search-input', ' hot pot ');
  expect(await screen.findByTestId('search-row-hot pot near me')).toBeInTheDocument();
  expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/search')).toEqual([{ platform: 'dy', word: 'hot pot' }]);
  expect(screen.getByTestId('search-row-hot pot near me')).toHaveTextContent('12,000');
  expect(screen.getByTestId('search-change-hot pot near me')).toHaveTextContent('+25%');
  expect(screen.getByTestId('search-change-best hot pot')).toHaveTextContent('-10%');
  expect(screen.getByTestId('search-covered-hot pot near me')).toHaveTextContent('In 2 of your titles');
  expect(screen.getByTestId('search-covered-best hot pot')).toHaveTextContent('Not covered yet');
  expect(screen.getByTestId('search-trend-hot pot near me').querySelector('polyline')).toBeTruthy();
  expect(screen.getByTestId('search-collected-best hot pot')).toBeInTheDocument();

  fireEvent.click(screen.getByTestId('search-collect-hot pot near me'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/collect')).toEqual([{ word: 'hot pot near me', platform: 'dy', heat: 12000 }]));
  expect(await screen.findByTestId('search-collected-hot pot near me')).toBeInTheDocument();
  expect(ctx.feedback.success).toHaveBeenCalledWith('Collected "hot pot near me"');

  fireEvent.click(screen.getByTestId('seo-platform-ks'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/search')).toEqual([{ platform: 'dy', word: 'hot pot' }, { platform: 'ks', word: 'hot pot' }]));
  });

  it('takes the seed from the address and speaks Chinese', async () => {
  await i18n.changeLanguage('zh-CN');
  try {
    renderAt(<KeySearchPage />, '/key_search?word=火锅&platform=ks');
    expect(await screen.findByTestId('search-row-火锅 near me')).toBeInTheDocument();
    expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/search')).toEqual([{ platform: 'ks', word: '火锅' }]);
    expect(screen.getByTestId('search-covered-火锅 near me')).toHaveTextContent('2 条标题已覆盖');
    expect(screen.getByTestId('page-title')).toHaveTextContent('关键词搜索');
  } finally {
    await i18n.changeLanguage('en');
  }
  });

  it('badges simulated figures, and names the missing source instead of numbers', async () => {
  renderAt(<KeySearchPage />, '/key_search?word=hot%20pot&platform=dy');
  const badge = await screen.findByTestId('data-source');
  expect(badge).toHaveTextContent('Simulated');
  expect(badge).toHaveAttribute('data-source', 'sandbox');
  expect(screen.queryByTestId('data-source-none')).toBeNull();
  });

  it('shows no number when no source provides the words, in both languages', async () => {
  await i18n.changeLanguage('zh-CN');
  try {
    renderAt(<KeySearchPage />, '/key_search?word=no%20source&platform=dy');
    const notice = await screen.findByTestId('data-source-none');
    expect(notice).toHaveTextContent('需配置数据源');
    expect(notice).toHaveTextContent('TikHub 不提供搜索热度');
    expect(screen.queryByTestId('data-source')).toBeNull();
    expect(screen.queryByText('12,000')).toBeNull();
  } finally {
    await i18n.changeLanguage('en');
  }
  });

  it('shows the last day\'s Douyin videos for the word, or what would provide them', async () => {
    renderAt(<KeySearchPage />, '/key_search?word=hot%20pot&platform=dy');
    const card = await screen.findByTestId('keyword-videos');
    expect(await screen.findByText('hot pot tonight')).toHaveAttribute('href', 'http://x/v1');
    expect(card).toHaveTextContent('1234');
    expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/videos')).toEqual([{ word: 'hot pot' }]);
  });

  it('names the permission the keyword video search needs when no account has it', async () => {
    renderAt(<KeySearchPage />, '/key_search?word=no%20source&platform=dy');
    const card = await screen.findByTestId('keyword-videos');
    await waitFor(() => expect(card).toHaveTextContent('video.search'));
  });

  it('reads no videos on Kuaishou', async () => {
    renderAt(<KeySearchPage />, '/key_search?word=hot%20pot&platform=ks');
    await screen.findByTestId('search-row-hot pot near me');
    expect(screen.queryByTestId('keyword-videos')).toBeNull();
    expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/videos')).toEqual([]);
  });
});
