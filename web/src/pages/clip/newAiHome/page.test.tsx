import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { OneTouchJob } from '@/api/clip/aiclip';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import NewAiHomePage from '.';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const job = (over: Partial<OneTouchJob>): OneTouchJob => ({
  id: 3,
  kind: 'video',
  name: 'Beef noodles',
  topic: 'Beef noodles',
  state: 'rendering',
  progress: 64,
  reason: '',
  count: 5,
  group_ids: [],
  voice: 'af_heart',
  template_id: null,
  script: ['Looking for beef noodles? Here it is.', 'Come and see for yourself!'],
  writer: 'builtin',
  voice_media_id: 8,
  voice_src: null,
  shots: [{ group_id: 11, group_name: 'Storefront', text: 'x', start_ms: 0, max_ms: 4000, score: 1 }],
  project_id: 0,
  variants: { success: 2, processing: 3, failed: 0 },
  created_at: 0,
  updated_at: 0,
  ...over,
});

let calls: { path: string; method: string; body: unknown }[];
let refuse = false;
beforeEach(() => {
  calls = [];
  refuse = false;
  spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, method: init.method ?? 'GET', body });
    if (path === '/events') return new Response('', { status: 204 });
    if (path.endsWith('/my_one_touch_job')) return ok({ rows: [job({})], total: 1 });
    if (path.endsWith('/getResourceGroupList')) return ok({ rows: [{ id: 11, name: 'Storefront', ready: 2, clip_ms: 8000, speech: false }], total: 1 });
    if (path.endsWith('/oneTouchNew')) {
      if (refuse) return json({ code: 422, message: 'topic is required', data: { field: 'topic' } }, 422);
      return ok(job({ id: 4, state: 'queued', progress: 0 }));
    }
    return ok({ rows: [], total: 0 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('/newAiHome', { timeout: 60_000 }, () => {
  it('shows a job’s steps, script and progress, and sends a topic', async () => {
    renderPage(<NewAiHomePage />, { route: '/oneKeyVideoNew' });
    expect(await screen.findByTestId('one-touch-state-3')).toHaveTextContent('Rendering');
    expect(screen.getByTestId('one-touch-script-3')).toHaveTextContent('Looking for beef noodles? Here it is.');
    expect(screen.getByTestId('one-touch-shots-3')).toHaveTextContent('Storefront · 4s');
    expect(screen.getByTestId('one-touch-progress-3')).toHaveTextContent('64%');
    expect(screen.getByTestId('one-touch-page')).toHaveTextContent('10 points (2 per video, returned if a video fails)');

    fireEvent.change(screen.getByTestId('one-touch-topic'), { target: { value: '  Beef noodles  ' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/oneTouchNew')).map((c) => c.body)).toEqual([{ topic: 'Beef noodles', count: 5 }]),
    );
  });

  it('shows a refused field at the field', async () => {
    refuse = true;
    renderPage(<NewAiHomePage />, { route: '/newAiHome' });
    fireEvent.change(await screen.findByTestId('one-touch-topic'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    expect(await screen.findByText('topic is required')).toBeInTheDocument();
  });
});
