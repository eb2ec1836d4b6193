import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import TasksPage from '.';

let calls: Array<{ path: string; query: URLSearchParams }>;

// what the server answers for `job_kind` (its JobKind list, in the caller's language)
const KINDS = [
  { label: 'Process a material', value: 'media.ingest' },
  { label: 'Render a video', value: 'clip.render' },
];

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  calls = [];
  mockFetch((url) => {
    calls.push({ path: url.pathname, query: url.searchParams });
    if (url.pathname === '/api/system/dic') return ok(url.searchParams.get('name') === 'job_kind' ? KINDS : []);
    if (url.pathname === '/api/system/tasks/index') {
      const row = { id: 7, kind: 'media.ingest', state: 'dead', attempts: 3, max_attempts: 3, progress: 0, last_error: 'x', merchant_id: 1, run_at: 1, created_at: 1, updated_at: 1 };
      return ok({ rows: [row], total: 1 });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

// whole pages render here: slow on a busy machine
describe('/system/tasks page', { timeout: 60_000 }, () => {
  it('names kinds from the job_kind dictionary and filters by the one picked', async () => {
    renderPage(<TasksPage />, { route: '/system/tasks', path: '/system/tasks' });
    expect(await screen.findByText('Process a material')).toBeInTheDocument();
    fireEvent.mouseDown(within(screen.getByTestId('tasks-filter-kind')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Render a video'));
    await waitFor(() => expect(calls.some((c) => c.path === '/api/system/tasks/index' && c.query.get('kind') === 'clip.render')).toBe(true));
  });
});
