import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import AuditCheckPage from '.';

beforeAll(async () => {
  // antd forms validate asynchronously; the machine is shared with builds
  await import('../i18n');
  await i18n.changeLanguage('en');
});

/** The buttons the server offers on a task under a review (`Review::actions`). */
const actions = (review: unknown) => [
  { action: 'approve', enabled: review === 'reviewing' },
  { action: 'reject', enabled: review === 'reviewing' },
  { action: 'publish_all', enabled: review === 'approved' },
];

const task = (id: number, over: Record<string, unknown> = {}) => ({
  actions: actions(over.review_state ?? 'reviewing'),
  id,
  name: `Task ${id}`,
  platform: 'dy',
  created_at: Date.UTC(2025, 0, 6, 1),
  review_state: 'reviewing',
  review_reason: null,
  review_due_at: Date.UTC(2025, 0, 6, 4),
  reviewed_at: null,
  time_mode: 'random',
  start_date: '2025-01-07',
  days: 3,
  daily_quantity: 1,
  titles: 'a#b',
  topics: ['spring'],
  accounts: 2,
  videos: 4,
  counts: { total: 4, to_release: 4, publishing: 0, published: 0, released: 0, failed: 0 },
  progress: 0,
  failed: 0,
  merchant_name: 'Acme',
  overdue: true,
  ...over,
});

let posts: { path: string; body: Record<string, unknown> }[];
let feedback: ReturnType<typeof spyFeedback>;
beforeEach(() => {
  posts = [];
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    posts.push({ path, body });
    if (path === '/system/audit/index') return ok({ rows: [task(1), task(2, { overdue: false, review_due_at: Date.UTC(2099, 0, 1) })], total: 2 });
    if (path === '/system/audit/detail')
      return ok({
        task: task(body.id),
        items: [
          {
            id: 31,
            task_id: body.id,
            task_name: 'x',
            account: { id: 1, nickname: 'acc-1', platform: 'dy', avatar: null },
            video: { key: 'v:1', name: 'clip.mp4', cover: '/files/1/cover?e=1&s=c', src: '/files/1/clip?e=1&s=v' },
            title: 'a',
            scheduled_at: Date.UTC(2025, 0, 7, 2),
            state: 'to_release',
            review_state: 'reviewing',
            error: null,
            attempts: 0,
            item_id: null,
            share_url: null,
            published_at: null,
            verified_at: null,
            plays: 0,
            likes: 0,
            comments: 0,
            actions: [{ action: 'publish_now', enabled: false }],
          },
        ],
      });
    if (path === '/system/audit/approve') return ok(task(body.id, { review_state: 'approved' }));
    if (path === '/system/audit/reject') return ok(task(body.id, { review_state: 'rejected', review_reason: body.reason }));
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('/auditCheck', { timeout: 60_000 }, () => {
  it('lists tasks with their merchant, SLA due time and overdue marker; approves after a confirmation', async () => {
    renderPage(<AuditCheckPage />, { route: '/auditCheck' });
    expect(await screen.findByTestId('overdue-1')).toHaveTextContent('Overdue');
    expect(screen.queryByTestId('overdue-2')).toBeNull();
    expect(screen.getByTestId('review-due-2')).toHaveTextContent('Due 2099-01-01');
    expect(screen.getByTestId('audit-table')).toHaveTextContent('Acme');

    fireEvent.click(screen.getByTestId('audit-open-1'));
    expect(await screen.findByTestId('audit-items')).toHaveTextContent('clip.mp4');
    fireEvent.click(screen.getByTestId('audit-approve'));
    expect(posts.some((p) => p.path === '/system/audit/approve')).toBe(false);
    fireEvent.click(await screen.findByTestId('audit-approve-ok'));
    await waitFor(() => expect(posts).toContainEqual({ path: '/system/audit/approve', body: { id: 1 } }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Task 1 approved'));
  });

  it('rejects only with a reason', async () => {
    renderPage(<AuditCheckPage />, { route: '/auditCheck' });
    fireEvent.click(await screen.findByTestId('audit-open-2'));
    fireEvent.click(await screen.findByTestId('audit-reject'));
    fireEvent.click(await screen.findByTestId('audit-reject-dialog-ok'));
    expect(await screen.findByText('Please give the reason')).toBeInTheDocument();
    expect(posts.some((p) => p.path === '/system/audit/reject')).toBe(false);
    fireEvent.change(screen.getByTestId('audit-reason'), { target: { value: ' Misleading price claim ' } });
    fireEvent.click(screen.getByTestId('audit-reject-dialog-ok'));
    await waitFor(() => expect(posts).toContainEqual({ path: '/system/audit/reject', body: { id: 2, reason: 'Misleading price claim' } }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Task 2 rejected'));
  });

  it("plays an item's video in the review drawer", async () => {
    renderPage(<AuditCheckPage />, { route: '/auditCheck' });
    fireEvent.click(await screen.findByTestId('audit-open-1'));
    fireEvent.click(await screen.findByTestId('audit-play-31'));
    const video = await screen.findByTestId('audit-video');
    expect(video).toHaveAttribute('src', '/files/1/clip?e=1&s=v');
    expect(video).toHaveAttribute('poster', '/files/1/cover?e=1&s=c');
    expect(video).toHaveAttribute('controls');
    expect(screen.getByTestId('audit-player-wrap')).toHaveTextContent('clip.mp4 for acc-1');
  });
});
