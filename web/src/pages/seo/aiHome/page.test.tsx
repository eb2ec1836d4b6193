import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { bodiesOf, renderAt, setupSeoPage } from '../testing';
import AiHomePage from '.';

const ctx = setupSeoPage((path, body) => {
  if (path === '/seo.merchant_keywords/hot')
    return { rows: [{ rank: 1, word: body.platform === 'ks' ? '快手热词' : '火锅', heat: 980000, label: '热', collected: false }, { rank: 2, word: '奶茶', heat: 50000, label: '', collected: true }] };
  if (path === '/seo.merchant_keywords/list') return { rows: [{ id: 3, word: '成都美食', platform: 'dy', heat: 100, covered: 1, created_at: 0 }], total: 1 };
  return undefined;
}, 'zh-CN');

describe('/ai_home', { timeout: 60_000 }, () => {
  it('shows the hot list of the chosen platform, the collected words and the shortcuts, in Chinese', async () => {
  renderAt(<AiHomePage />, '/ai_home');
  expect(await screen.findByTestId('hot-word-1')).toHaveTextContent('火锅');
  expect(screen.getByTestId('hot-word-1')).toHaveAttribute('href', `/key_search?word=${encodeURIComponent('火锅')}&platform=dy`);
  expect(screen.getByTestId('hot-row-1')).toHaveTextContent('980,000');
  expect(screen.getByTestId('hot-collected-奶茶')).toHaveTextContent('已收藏');
  expect(await screen.findByTestId('home-collected-3')).toHaveTextContent('成都美食');
  expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/list')).toEqual([{ page: 1, limit: 30 }]);
  expect(screen.getByTestId('home-shortcut-key_search')).toHaveTextContent('关键词搜索');
  expect(screen.getByTestId('home-shortcut-keywords-new_title')).toHaveAttribute('href', '/keywords-new_title');
  expect(screen.getByTestId('page-title')).toHaveTextContent('SEO 首页');

  fireEvent.click(screen.getByTestId('hot-collect-火锅'));
  await waitFor(() => expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/collect')).toEqual([{ word: '火锅', platform: 'dy', heat: 980000 }]));

  fireEvent.click(screen.getByTestId('seo-platform-ks'));
  expect(await screen.findByText('快手热词')).toBeInTheDocument();
  expect(bodiesOf(ctx.calls, '/seo.merchant_keywords/hot')).toEqual([{ platform: 'dy' }, { platform: 'ks' }]);
  });
});
