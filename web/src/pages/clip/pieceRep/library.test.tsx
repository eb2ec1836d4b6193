import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Variant } from '@/api/clip/types';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import PieceRepPage from '.';
import { UsedTag, VariantState } from './VariantState';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
let feedback: ReturnType<typeof spyFeedback>;
beforeEach(() => {
  feedback = spyFeedback();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const variant = (over: Partial<Variant>): Variant => ({
  id: 1,
  merchant_id: 1,
  project_id: 5,
  seq: [1, 3, 5],
  clips: [
    { id: 1, name: 'open-a' },
    { id: 3, name: 'mid-a' },
    { id: 5, name: 'end-a' },
  ],
  state: 'success',
  error: '',
  progress: 100,
  duration_ms: 3000,
  used: 0,
  src: '/api/files/1?sig=x',
  cover: '/api/files/1/cover?sig=x',
  job_id: 0,
  ai_parts: [],
  risk: null,
  risk_level: null,
  risk_reasons: [],
  created_at: Date.UTC(2025, 0, 2, 3, 4, 5),
  updated_at: Date.UTC(2025, 0, 2, 3, 4, 5),
  ...over,
});

describe('synthesis state (SPEC §4: in progress, success, failed with a reason; used or unused)', () => {
  it('renders a progress bar while synthesizing, the reason when failed, and the used tag for finished ones', () => {
    render(
      <>
        <VariantState row={variant({ id: 1, state: 'processing', progress: 37.4 })} />
        <VariantState row={variant({ id: 2, state: 'failed', error: 'ffmpeg exited with 1' })} />
        <VariantState row={variant({ id: 3, state: 'success' })} />
        <UsedTag row={variant({ id: 3, used: 1 })} />
        <UsedTag row={variant({ id: 4, used: 0 })} />
        <UsedTag row={variant({ id: 5, state: 'processing' })} />
      </>,
    );
    const running = screen.getByTestId('variant-state-1');
    expect(running).toHaveAttribute('data-state', 'processing');
    expect(running).toHaveAttribute('data-progress', '37');
    expect(running).toHaveTextContent('Synthesizing');
    expect(running.querySelector('.ant-progress')).not.toBeNull();
    expect(running).toHaveTextContent('37%');
    expect(screen.getByTestId('variant-state-2')).toHaveTextContent('Failed');
    expect(screen.getByTestId('variant-error-2')).toHaveTextContent('Reason: ffmpeg exited with 1');
    expect(screen.getByTestId('variant-state-3')).toHaveTextContent('Success');
    expect(screen.getByTestId('variant-used-3')).toHaveTextContent('Used');
    expect(screen.getByTestId('variant-used-4')).toHaveTextContent('Unused');
    expect(screen.queryByTestId('variant-used-5')).toBeNull();
  });
});

describe('/piece_rep', { timeout: 60_000 }, () => {
  it('polls every 2 s while a video renders, shows its progress, reloads when it is done, then stops', async () => {
    let finished = false;
    let polls = 0;
    let loads = 0;
    mockFetch((url) => {
      if (url.pathname.endsWith('/clip.merchant_much_clip/index'))
        return ok({ rows: [{ id: 5, name: 'Spring', status: 1, capacity: 3, config: { output_count: 5 } }], total: 1 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index')) {
        if (url.searchParams.get('state') === 'processing' && url.searchParams.get('limit') === '1000') {
          polls += 1;
          if (polls === 1) return ok({ rows: [variant({ id: 9, state: 'processing', progress: 60 })], total: 1 });
          finished = true;
          return ok({ rows: [], total: 0 });
        }
        loads += 1;
        const nine = finished ? variant({ id: 9 }) : variant({ id: 9, state: 'processing', progress: 20, src: null, cover: null });
        return ok({ rows: [nine, variant({ id: 8, used: 1 })], total: 2 });
      }
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep' });
    const state = async (attr: string, value: string, timeout = 1000) =>
      waitFor(() => expect(screen.getByTestId('variant-state-9')).toHaveAttribute(attr, value), { timeout });
    await state('data-progress', '20');
    expect(screen.getByTestId('library-rendering')).toHaveTextContent('1 rendering');
    expect(screen.getByTestId('variant-play-9')).toBeDisabled();
    expect(screen.getByTestId('variant-use-9')).toBeDisabled();
    expect(screen.getByTestId('variant-delete-9')).toBeDisabled();
    expect(screen.getByTestId('library-table')).toHaveTextContent('Spring');
    expect(screen.getByTestId('variant-clips-8')).toHaveTextContent('open-amid-aend-a');
    const loadsBefore = loads;
    await state('data-progress', '60', 6000);
    expect(polls).toBe(1);
    await state('data-state', 'success', 6000);
    expect(polls).toBe(2);
    expect(loads).toBe(loadsBefore + 1);
    expect(screen.queryByTestId('library-rendering')).toBeNull();
    await act(() => new Promise((r) => setTimeout(r, 2300)));
    expect(polls).toBe(2);
  });

  it('plays a finished video in a dialog and marks it used; deletes the selected ones', async () => {
    const posts: { path: string; body: unknown }[] = [];
    mockFetch((url, init) => {
      if (init.method === 'POST') posts.push({ path: url.pathname.replace('/api', ''), body: JSON.parse(String(init.body)) });
      if (url.pathname.endsWith('/clip.merchant_much_clip/index')) return ok({ rows: [], total: 0 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index')) return ok({ rows: [variant({ id: 8, ai_parts: ['audio', 'text'], risk: 47, risk_level: 'medium', risk_reasons: [{ against: 'sibling', other_id: 9, score: 47, visual: 25, shared_clips: [1, 4] }] }), variant({ id: 7, state: 'failed', error: 'boom', src: null })], total: 2 });
      if (url.pathname.endsWith('/video_use')) return ok(variant({ id: 8, used: 1 }));
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep' });
    fireEvent.click(await screen.findByTestId('variant-play-8'));
    // A video with generated parts says so (it carries the AI label); the merchant's own footage not.
    expect(screen.getByTestId('variant-ai-8')).toHaveTextContent('AI');
    expect(screen.queryByTestId('variant-ai-7')).toBeNull();
    // The duplicate risk with its band; not measured (a failed render) a dash.
    expect(screen.getByTestId('variant-risk-8')).toHaveTextContent('Medium 47');
    expect(screen.getByTestId('variant-risk-7')).toHaveTextContent('—');
    const video = (await screen.findByTestId('variant-video')) as HTMLVideoElement;
    expect(video.getAttribute('src')).toBe('/api/files/1?sig=x');
    expect(video.controls).toBe(true);
    expect(screen.getByTestId('variant-play-7')).toBeDisabled();

    fireEvent.click(screen.getByTestId('variant-use-8'));
    await waitFor(() => expect(posts).toContainEqual({ path: '/clip.merchant_video_library/video_use', body: { id: 8, used: true } }));

    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Marked as used'));
    const box = (i: number) => screen.getByTestId('library-table').querySelectorAll('tr.ant-table-row .ant-checkbox-input')[i];
    fireEvent.click(box(0));
    await waitFor(() => expect(screen.getByTestId('library-delete')).toHaveTextContent('Delete selected (1)'));
    fireEvent.click(box(1));
    await waitFor(() => expect(screen.getByTestId('library-delete')).toHaveTextContent('Delete selected (2)'));
    fireEvent.click(screen.getByTestId('library-delete'));
    fireEvent.click(await screen.findByTestId('library-delete-ok'));
    await waitFor(() => expect(posts).toContainEqual({ path: '/clip.merchant_video_library/video_delete', body: { ids: [8, 7] } }));
    expect(within(screen.getByTestId('library-table')).getByTestId('variant-error-7')).toHaveTextContent('Reason: boom');
  });

  it('downloads one video by its signed link, and the selected ones as one zip', async () => {
    const posts: { path: string; body: unknown }[] = [];
    const clicked: string[] = [];
    const anchorClick = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicked.push(this.getAttribute('href') ?? '');
    });
    mockFetch((url, init) => {
      const body = init.body ? JSON.parse(String(init.body)) : undefined;
      if (init.method === 'POST') posts.push({ path: url.pathname.replace('/api', ''), body });
      if (url.pathname.endsWith('/clip.merchant_much_clip/index')) return ok({ rows: [], total: 0 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index'))
        return ok({ rows: [variant({ id: 8 }), variant({ id: 7 }), variant({ id: 6, state: 'processing', progress: 5, src: null })], total: 3 });
      if (url.pathname.endsWith('/clip.merchant_video_library/download')) {
        const ids = (body as { ids: number[] }).ids;
        return ok(
          ids.length === 1
            ? { url: `/files/${ids[0]}/clip?e=1&s=x&dl=1`, expires_at: 1, zip: false, files: 1, bytes: 5_000_000 }
            : { url: '/files/zip?m=1&ids=8,7&e=1&s=x', expires_at: 1, zip: true, files: 2, bytes: 61_000_000 },
        );
      }
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep' });
    expect(await screen.findByTestId('variant-download-6')).toBeDisabled();
    fireEvent.click(screen.getByTestId('variant-download-8'));
    await waitFor(() => expect(clicked).toEqual(['/files/8/clip?e=1&s=x&dl=1']));
    expect(posts).toContainEqual({ path: '/clip.merchant_video_library/download', body: { ids: [8] } });
    expect(screen.getByTestId('library-download')).toBeDisabled();
    const box = (i: number) => screen.getByTestId('library-table').querySelectorAll('tr.ant-table-row .ant-checkbox-input')[i];
    fireEvent.click(box(0));
    fireEvent.click(box(1));
    await waitFor(() => expect(screen.getByTestId('library-download')).toHaveTextContent('Download selected (2, zip)'));
    fireEvent.click(screen.getByTestId('library-download'));
    await waitFor(() => expect(clicked).toEqual(['/files/8/clip?e=1&s=x&dl=1', '/files/zip?m=1&ids=8,7&e=1&s=x']));
    expect(posts).toContainEqual({ path: '/clip.merchant_video_library/download', body: { ids: [8, 7] } });
    expect(feedback.success).toHaveBeenCalledWith('Zipping 2 videos (61 MB) as they download');
    anchorClick.mockRestore();
  });

  it('cancels a render that is still running, and says the points came back', async () => {
    const posts: { path: string; body: unknown }[] = [];
    mockFetch((url, init) => {
      if (init.method === 'POST') posts.push({ path: url.pathname.replace('/api', ''), body: JSON.parse(String(init.body)) });
      if (url.pathname.endsWith('/clip.merchant_much_clip/index')) return ok({ rows: [], total: 0 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index')) return ok({ rows: [variant({ id: 9, state: 'processing', progress: 40 }), variant({ id: 8 })], total: 2 });
      if (url.pathname.endsWith('/video_cancel')) return ok({ cancelled: 1 });
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep' });
    fireEvent.click(await screen.findByTestId('variant-cancel-9'));
    expect(screen.queryByTestId('variant-cancel-8')).toBeNull();
    fireEvent.click(await screen.findByTestId('variant-cancel-ok-9'));
    await waitFor(() => expect(posts).toContainEqual({ path: '/clip.merchant_video_library/video_cancel', body: { id: 9 } }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Cancelled; the points were refunded'));
  });

  it('follows `variant` events while /api/events is up (no polling), and reloads when a render finishes', async () => {
    const enc = new TextEncoder();
    let push!: (text: string) => void;
    const body = new ReadableStream<Uint8Array>({ start: (c) => void (push = (text) => c.enqueue(enc.encode(text))) });
    const sendVariant = (row: Partial<Variant> & { id: number }) =>
      push(`event: variant\ndata: ${JSON.stringify([{ project_id: 5, state: 'processing', progress: 0, error: '', duration_ms: 0, updated_at: T0 + 10, ...row }])}\n\n`);
    const T0 = Date.UTC(2025, 0, 2, 3, 4, 5);
    let finished = false;
    let polls = 0;
    let loads = 0;
    mockFetch((url) => {
      if (url.pathname === '/api/events') return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
      if (url.pathname.endsWith('/clip.merchant_much_clip/index'))
        return ok({ rows: [{ id: 5, name: 'Spring', status: 1, capacity: 3, config: { output_count: 5 } }], total: 1 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index')) {
        if (url.searchParams.get('state') === 'processing') {
          polls += 1;
          return ok({ rows: [], total: 0 });
        }
        loads += 1;
        const nine = finished
          ? variant({ id: 9, updated_at: T0 + 100 })
          : variant({ id: 9, state: 'processing', progress: 20, src: null, cover: null, updated_at: T0 });
        return ok({ rows: [nine], total: 1 });
      }
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep' });
    const state = async (attr: string, value: string, timeout = 3000) =>
      waitFor(() => expect(screen.getByTestId('variant-state-9')).toHaveAttribute(attr, value), { timeout });
    await state('data-progress', '20');
    sendVariant({ id: 9, progress: 70 });
    await state('data-progress', '70');
    // an event older than the row is ignored, other variants do not matter
    sendVariant({ id: 9, progress: 10, updated_at: T0 - 1 });
    sendVariant({ id: 44, progress: 10 });
    await act(() => new Promise((r) => setTimeout(r, 2500)));
    expect(screen.getByTestId('variant-state-9')).toHaveAttribute('data-progress', '70');
    expect(polls).toBe(0);
    const loadsBefore = loads;
    finished = true;
    sendVariant({ id: 9, state: 'success', progress: 100, duration_ms: 3000, updated_at: T0 + 100 });
    await state('data-state', 'success');
    await waitFor(() => expect(loads).toBe(loadsBefore + 1));
    await waitFor(() => expect(screen.getByTestId('variant-play-9')).toBeEnabled());
    expect(screen.queryByTestId('library-rendering')).toBeNull();
    expect(polls).toBe(0);
  });

  it('shows imported videos as "Imported" with the video\'s name, and imports the chosen processed videos', async () => {
    const posts: { path: string; body: unknown }[] = [];
    const asked: URLSearchParams[] = [];
    let refuse = true;
    mockFetch((url, init) => {
      if (init.method === 'POST') posts.push({ path: url.pathname.replace('/api', ''), body: JSON.parse(String(init.body)) });
      if (url.pathname.endsWith('/clip.merchant_much_clip/index')) return ok({ rows: [], total: 0 });
      if (url.pathname.endsWith('/clip.merchant_senior_clip/index'))
        return ok({ rows: [{ id: 6, name: 'Adv', mode: 'senior', status: 1, capacity: 4, config: { output_count: 2 } }], total: 1 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index'))
        return ok({
          rows: [
            variant({ id: 20, project_id: 0, project_name: null, seq: [77], clips: [{ id: 77, name: 'finished.mp4' }] }),
            variant({ id: 21, project_id: 6, project_name: 'Adv' }),
          ],
          total: 2,
        });
      if (url.pathname.endsWith('/media.merchant_much_resource/video_resource_detail')) {
        asked.push(url.searchParams);
        return ok({
          rows: [
            { id: 77, name: 'finished.mp4', kind: 'video', state: 'ready', duration_ms: 12_000 },
            { id: 78, name: 'other.mp4', kind: 'video', state: 'ready', duration_ms: 8_000 },
          ],
          total: 2,
        });
      }
      if (url.pathname.endsWith('/clip.merchant_video_library/add')) {
        if (refuse) {
          refuse = false;
          return json({ code: 422, message: 'This video is already in the library: finished.mp4', data: { field: 'ids' } }, 422);
        }
        return ok({ variant_ids: [22] });
      }
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep' });
    expect(await screen.findByTestId('variant-imported-20')).toHaveTextContent('Imported');
    expect(screen.getByTestId('variant-project-20')).toHaveTextContent('finished.mp4');
    expect(screen.queryByTestId('variant-continue-20')).toBeNull();
    expect(screen.queryByTestId('variant-imported-21')).toBeNull();
    // an advanced project's video: its name, and "continue adding" for it
    await waitFor(() => expect(screen.getByTestId('variant-continue-21')).toBeEnabled());
    expect(screen.getByTestId('variant-project-21')).toHaveTextContent('Adv');

    fireEvent.click(screen.getByTestId('library-import'));
    fireEvent.click(await screen.findByTestId('import-video-77'));
    await waitFor(() => expect(screen.getByTestId('library-import-ok')).toHaveTextContent('Import (1)'));
    expect(JSON.parse(asked[0].get('filterObj') ?? '{}')).toEqual({ kind: 'video|=', state: 'ready|=' });
    expect(Number(asked[0].get('limit'))).toBeGreaterThan(0);
    fireEvent.click(screen.getByTestId('library-import-ok'));
    expect(await screen.findByTestId('library-import-error')).toHaveTextContent('This video is already in the library: finished.mp4');
    expect(posts.at(-1)).toEqual({ path: '/clip.merchant_video_library/add', body: { ids: [77] } });
    // swap: other.mp4 instead
    fireEvent.click(screen.getByTestId('import-video-77'));
    fireEvent.click(screen.getByTestId('import-video-78'));
    await waitFor(() => expect(screen.queryByTestId('library-import-error')).toBeNull());
    fireEvent.click(screen.getByTestId('library-import-ok'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('1 video(s) imported'));
    expect(posts.at(-1)).toEqual({ path: '/clip.merchant_video_library/add', body: { ids: [78] } });
  });

  it('"render all remaining" of the chosen project: confirms the points first, then asks job_video_add_all', async () => {
    const posts: { path: string; body: { id: number; count?: number } }[] = [];
    mockFetch((url, init) => {
      if (init.method === 'POST') posts.push({ path: url.pathname.replace('/api', ''), body: JSON.parse(String(init.body)) });
      if (url.pathname.endsWith('/clip.merchant_much_clip/index'))
        return ok({ rows: [{ id: 5, name: 'Spring', status: 1, capacity: 1000, config: { output_count: 5 } }], total: 1 });
      if (url.pathname.endsWith('/clip.merchant_video_library/index')) return ok({ rows: [variant({ id: 8 })], total: 1 });
      if (url.pathname.endsWith('/preview_video')) {
        const n = JSON.parse(String(init.body)).count;
        return ok({ capacity_before: 1000, capacity_after: 1000 - n, max_use: 9, min_use: 8, max_spread: 1, balanced: true, points: n * 2, sequences: [] });
      }
      if (url.pathname.endsWith('/job_video_add_all'))
        return ok({ capacity_before: 1000, capacity_after: 800, max_use: 9, min_use: 8, max_spread: 1, balanced: true, points: 400, sequences: [], variant_ids: Array.from({ length: 200 }, (_, i) => i + 100) });
      return ok({});
    });
    renderPage(<PieceRepPage />, { route: '/piece_rep?project_id=5' });
    const button = await screen.findByTestId('library-render-all');
    await waitFor(() => expect(button).toBeEnabled());
    expect(button).toHaveTextContent('Render all remaining (200)');
    fireEvent.click(button);
    expect(await screen.findByText('Render all remaining: Spring')).toBeInTheDocument();
    expect(screen.getByTestId('generate-count')).toBeDisabled();
    await waitFor(() => expect(screen.getByTestId('generate-points')).toHaveAttribute('data-points', '400'));
    expect(screen.getByTestId('generate-points')).toHaveTextContent('200 unique videos will be rendered for 400 points.');
    expect(posts.find((p) => p.path.endsWith('/job_video_add_all'))).toBeUndefined(); // nothing before the confirmation
    await waitFor(() => expect(screen.getByTestId('generate-ok')).toBeEnabled());
    fireEvent.click(screen.getByTestId('generate-ok'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('200 videos queued (400 points)'));
    expect(posts.find((p) => p.path.endsWith('/job_video_add_all'))?.body).toEqual({ id: 5 });
  });
});
