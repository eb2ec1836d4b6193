import { configure, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import TaskDetail from './TaskDetail';

beforeAll(async () => {
  configure({ asyncUtilTimeout: 8000 });
  await import('../i18n');
});

const task = {
  id: 1,
  name: 'Spring launch',
  platform: 'dy',
  created_at: 0,
  review_state: 'approved',
  review_reason: null,
  review_due_at: 0,
  reviewed_at: 0,
  time_mode: 'random',
  start_date: '2025-01-07',
  days: 3,
  daily_quantity: 1,
  accounts: 2,
  videos: 2,
  counts: { total: 2, to_release: 1, publishing: 0, published: 1, released: 0, failed: 0 },
  progress: 50,
  failed: 0,
  actions: [
    { action: 'approve', enabled: false },
    { action: 'reject', enabled: false },
    { action: 'publish_all', enabled: true },
  ],
};
const item = (id: number, state: string) => ({
  id,
  task_id: 1,
  task_name: 'Spring launch',
  account: { id: 1, nickname: 'Tea shop', platform: 'dy', avatar: null },
  video: { key: 'v:3', name: 'Spring sale #3', cover: null, src: null },
  title: 'Spring',
  // the item's top comments are texts; its comment count is comment_count
  comments: ['Tasty!', 'Coming back'],
  scheduled_at: Date.UTC(2025, 0, 7, 2),
  state,
  review_state: 'approved',
  error: null,
  attempts: 1,
  item_id: null,
  share_url: state === 'published' ? 'https://www.douyin.com/video/1' : null,
  published_at: null,
  verified_at: null,
  plays: 12345,
  likes: 321,
  comment_count: 7,
  // what the server offers an approved item in this state (`ItemFacts::actions`)
  actions: state === 'published' ? [{ action: 'send_comments', enabled: true }] : [{ action: state === 'failed' ? 'retry' : 'publish_now', enabled: true }],
});

beforeEach(() => {
  spyFeedback();
  mockFetch((url) => (url.pathname.endsWith('/forward_video_release') ? ok({ rows: [item(1, 'to_release'), item(2, 'published')], total: 2 }) : ok({})));
});
afterEach(() => {
  window.sessionStorage.clear();
  vi.unstubAllGlobals();
  setFeedback(null);
});

/** The drawer's content width: 1100 px less 24 px padding either side. */
const CONTENT = 1100 - 48;

describe.each(['en', 'zh-CN'])('release-task detail drawer (%s)', (lng) => {
  beforeAll(async () => {
    await i18n.changeLanguage(lng);
  });

  it('shows the platform counts, not the comment texts', async () => {
    renderPage(<TaskDetail task={task as never} onClose={() => undefined} />, { route: '/send_management' });
    const stats = await screen.findByTestId('item-stats-2');
    expect(within(stats).getByTestId('item-plays-2')).toHaveTextContent('12,345');
    expect(within(stats).getByTestId('item-likes-2')).toHaveTextContent('321');
    expect(within(stats).getByTestId('item-comment-count-2')).toHaveTextContent('7');
    expect(stats).not.toHaveTextContent('Tasty');
  });

  it('puts the status where the fixed action column cannot cover it, and keeps the summary labels on one line', async () => {
    renderPage(<TaskDetail task={task as never} onClose={() => undefined} />, { route: '/send_management' });
    await screen.findByTestId('item-state-1');
    const table = screen.getByTestId('items-table');
    const headers = within(table).getAllByRole('columnheader');
    const widths = Array.from(table.querySelectorAll('colgroup col')).map((c) => parseFloat((c as HTMLElement).style.width));
    const state = headers.findIndex((h) => h.textContent === i18n.t('item.state', { ns: 'matrix' }));
    const actions = headers.length - 1;
    expect(headers[actions]).toHaveClass('ant-table-cell-fix-end');
    expect(headers[state]).not.toHaveClass('ant-table-cell-fix-end');
    // before any scrolling the status column ends left of where the action column starts
    const stateEnd = widths.slice(0, state + 1).reduce((a, b) => a + b, 0);
    expect(stateEnd).toBeLessThanOrEqual(CONTENT - widths[actions]);
    // the table scrolls by the sum of its columns (none is squeezed below its width)
    expect(parseFloat((table.querySelector('table') as HTMLElement).style.width)).toBeGreaterThanOrEqual(widths.reduce((a, b) => a + b, 0));
    for (const label of screen.getByTestId('detail-summary').querySelectorAll('.ant-descriptions-item-label')) expect(label).toHaveStyle({ whiteSpace: 'nowrap' });
  });
});

describe('release-task detail: the buttons are the ones the server offers', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('renders each item\'s offered actions, disabled where the server would refuse them', async () => {
    const rows = [
      // a rejected task's failed item: retry offered but refused
      { ...item(1, 'failed'), review_state: 'rejected', actions: [{ action: 'retry', enabled: false }] },
      { ...item(2, 'to_release'), actions: [{ action: 'publish_now', enabled: true }] },
      // publishing: nothing to do
      { ...item(3, 'publishing'), actions: [] },
    ];
    mockFetch((url) => (url.pathname.endsWith('/forward_video_release') ? ok({ rows, total: 3 }) : ok({})));
    const rejected = { ...task, review_state: 'rejected', actions: task.actions.map((a) => ({ ...a, enabled: false })) };
    renderPage(<TaskDetail task={rejected as never} onClose={() => undefined} />, { route: '/send_management' });
    const retry = await screen.findByTestId('item-publish-1');
    expect(retry).toHaveTextContent('Retry');
    expect(retry).toBeDisabled();
    expect(screen.getByTestId('item-publish-2')).toHaveTextContent('Publish now');
    expect(screen.getByTestId('item-publish-2')).toBeEnabled();
    expect(screen.queryByTestId('item-publish-3')).toBeNull();
    expect(screen.queryByTestId('item-comments-3')).toBeNull();
    expect(screen.getByTestId('task-publish-all')).toBeDisabled();
  });
});
