import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { IntellectRun } from '@/api/clip/intellect';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import IntellectPage, { clock } from '.';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const run = (over: Partial<IntellectRun>): IntellectRun => ({
  id: 7,
  merchant_id: 2,
  merchant_name: 'Demo shop',
  resource_id: 31,
  name: 'coffee talk.mp4',
  source: { id: 31, duration_ms: 180_000, src: '/files/31/original', poster: null },
  group_id: 12,
  group_name: 'AI shorts',
  min_seconds: 15,
  max_seconds: 40,
  count: 3,
  lang: 'en',
  state: 'done',
  step: 'cut',
  progress: 100,
  reason: '',
  points: 3,
  segments: [
    {
      start_ms: 30_000,
      end_ms: 50_500,
      score: 88,
      speech_ms: 17_000,
      start_on: 'scene',
      end_on: 'sentence',
      transcript: 'Welcome to our little coffee shop.',
      short: { id: 40, name: 'coffee talk AI 00:30-00:50', duration_ms: 20_500, group_id: 12, state: 'ready', src: '/files/40/original', poster: null },
    },
  ],
  created_by: 'admin',
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
    if (path === '/system/merchant/index') return ok({ rows: [{ id: 2, name: 'Demo shop', username: 'demo' }], total: 1 });
    if (path === '/system/intellect/sources')
      return ok({
        videos: [{ id: 31, name: 'coffee talk.mp4', duration_ms: 180_000, group_id: 5, asr_state: 'none', has_audio: true, points: 3, poster: null, src: '/x' }],
        groups: [{ id: 12, name: 'AI shorts' }],
      });
    if (path === '/system/intellect/index') return ok({ rows: [run({}), run({ id: 8, state: 'failed', step: 'pick', progress: 0, reason: 'Nothing found', segments: [], points: 0 })], total: 2 });
    if (path === '/system/intellect/add') {
      if (refuse) return json({ code: 422, message: 'The shortest length cannot be longer than the longest', data: { field: 'min_seconds' } }, 422);
      return ok(run({ id: 9, state: 'running', step: 'analyse', progress: 0, segments: [] }));
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

async function choose(testId: string, label: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const options = await screen.findAllByText(label);
  fireEvent.click(options[options.length - 1]);
}

describe('/intellect', { timeout: 60_000 }, () => {
  it('formats times', () => {
    expect(clock(0)).toBe('0:00.0');
    expect(clock(95_250)).toBe('1:35.3');
  });

  it('shows runs with their segments on a timeline, the shorts and a failure', async () => {
    renderPage(<IntellectPage />, { route: '/intellect' });
    expect(await screen.findByTestId('intellect-state-7')).toHaveTextContent('Done');
    expect(screen.getByTestId('intellect-progress-7')).toHaveTextContent('100%');
    const seg = screen.getByTestId('intellect-segment-7-0');
    expect(seg).toHaveTextContent('0:30.0–0:50.5');
    expect(seg).toHaveTextContent('Score 88');
    expect(seg).toHaveTextContent('scene change → sentence edge');
    expect(seg).toHaveTextContent('Welcome to our little coffee shop.');
    expect(screen.getByTestId('intellect-short-7-0')).toHaveAttribute('href', '/files/40/original');
    // The bar sits at 30 s of 180 s.
    expect(screen.getByTestId('intellect-bar-7-0').style.left).toBe(`${(100 * 30) / 180}%`);
    const player = screen.getByTestId('intellect-player-7') as HTMLVideoElement;
    fireEvent.click(screen.getByTestId('intellect-play-7-0'));
    expect(player.currentTime).toBe(30);
    expect(screen.getByTestId('intellect-state-8')).toHaveTextContent('Failed');
    expect(screen.getByTestId('intellect-reason-8')).toHaveTextContent('Nothing found');
    fireEvent.click(screen.getByTestId('intellect-retry-8'));
    await waitFor(() => expect(calls.some((c) => c.path === '/system/intellect/retry')).toBe(true));
  });

  it('starts a run on a merchant’s video and shows a refused field at the field', async () => {
    renderPage(<IntellectPage />, { route: '/intellect' });
    await choose('intellect-merchant', 'Demo shop (demo)');
    await waitFor(() => expect(calls.some((c) => c.path === '/system/intellect/sources')).toBe(true));
    await choose('intellect-video', 'coffee talk.mp4 (3:00.0)');
    expect(await screen.findByText('Not recognized yet: recognition costs the merchant 3 points (returned if the run fails)')).toBeInTheDocument();
    await choose('intellect-group', 'AI shorts');
    fireEvent.click(screen.getByTestId('intellect-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path === '/system/intellect/add').map((c) => c.body)).toEqual([
        { merchant_id: 2, resource_id: 31, group_id: 12, min_seconds: 15, max_seconds: 60, count: 5, lang: 'zh' },
      ]),
    );
    refuse = true;
    fireEvent.click(screen.getByTestId('intellect-submit'));
    expect(await screen.findByText('The shortest length cannot be longer than the longest')).toBeInTheDocument();
  });
});
