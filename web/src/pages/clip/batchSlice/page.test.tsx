import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SliceProject, SliceSource, SliceVideo } from '@/api/clip/slice';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import BatchSlicePage from '.';

const source = (over: Partial<SliceSource>): SliceSource => ({
  id: 31,
  project_id: 5,
  resource_id: 21,
  name: 'Live stream.mp4',
  state: 'processing',
  progress: 40,
  error: '',
  slices: 1,
  created_at: 0,
  updated_at: 0,
  ...over,
});
const slice = (id: number, start: number): SliceVideo => ({
  id,
  name: `Live stream ${start}`,
  duration_ms: 4000,
  group_id: 9,
  state: 'ready',
  poster: `/files/${id}/poster`,
  src: `/files/${id}/original`,
  mezzanine: `/files/${id}/mezzanine`,
  source_id: 31,
  source_name: 'Live stream.mp4',
  start,
  end: start + 4,
  start_ms: start * 1000,
  end_ms: (start + 4) * 1000,
});
const project = (over: Partial<SliceProject>): SliceProject => ({
  id: 5,
  name: 'Spring live',
  mode: 'fixed',
  seconds: 4,
  min_seconds: 0,
  max_seconds: 0,
  group_id: 9,
  group_name: 'Slices',
  state: 'processing',
  sources: [source({})],
  slices: 1,
  created_at: Date.UTC(2025, 0, 2),
  updated_at: 0,
  ...over,
});

let sent: { url: string; body: Record<string, unknown> }[] = [];
let polls = 0;
let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  polls = 0;
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    if (init.method === 'POST') sent.push({ url: path, body: JSON.parse(String(init.body ?? '{}')) });
    // the source finishes on the third look
    const done = polls >= 2;
    if (path === '/clip.merchant_visual_editing/index')
      return ok({ rows: [project(done ? { state: 'success', sources: [source({ state: 'success', progress: 100, slices: 3 })], slices: 3 } : {})], total: 1 });
    if (path === '/clip.merchant_project/index') {
      polls += 1;
      return ok({ rows: [done ? source({ state: 'success', progress: 100, slices: 3 }) : source({ progress: 40 + polls * 10 })], total: 1 });
    }
    if (path === '/clip.merchant_visual_editing/video_library') {
      const rows = done ? [slice(101, 0), slice(102, 4), slice(103, 8)] : [slice(101, 0)];
      return ok({ rows, total: rows.length });
    }
    if (path.endsWith('/video_resource_group_index'))
      return ok({ rows: [{ id: 9, name: 'Slices', kind: 'video', count: 3, ready: 3 }, { id: 10, name: 'Picked', kind: 'video', count: 0, ready: 0 }], total: 2 });
    if (path.endsWith('/video_resource_detail')) return ok({ rows: [], total: 0 });
    if (path.endsWith('/job_video_add_all')) return ok({ moved: 3, group_id: 10, group_name: 'Picked' });
    if (path.endsWith('/job_export')) return ok({ queued: 0, project: project({}) });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('/batch_slice', { timeout: 60_000 }, () => {
  it('lists projects, and the detail polls a slicing video until its slices are all there', async () => {
    renderPage(<BatchSlicePage pollMs={60} />, { route: '/batch_slice' });
    expect(await screen.findByTestId('slice-project-5')).toHaveTextContent('Spring live');
    expect(screen.getByTestId('slice-state-5')).toHaveTextContent('Slicing');
    fireEvent.click(screen.getByTestId('slice-open-5'));
    const detail = await screen.findByTestId('slice-detail');
    expect(within(detail).getByTestId('slice-detail-settings')).toHaveTextContent('Fixed length (4 s each) · into Slices');
    expect(await within(detail).findByTestId('source-progress-31')).toBeInTheDocument();
    expect(within(detail).getByTestId('slice-slicing')).toHaveTextContent('1 video(s) being sliced');
    // polled every pollMs until the source is done; then the three slices show
    await waitFor(() => expect(within(detail).getByTestId('source-state-31')).toHaveTextContent('Done'), { timeout: 5000 });
    await waitFor(() => expect(within(detail).getAllByTestId(/^slice-card-/)).toHaveLength(3), { timeout: 5000 });
    expect(within(detail).getByTestId('slice-count')).toHaveTextContent('Slices (3)');
    expect(within(detail).getByTestId('source-start-31')).toHaveTextContent('Retry');
    const seen = polls;
    await new Promise((r) => setTimeout(r, 300));
    expect(polls).toBe(seen); // no more polling once nothing is slicing
  });

  it('reads the slices once more when slicing ends (the last slices come with the finished state)', async () => {
    let finished = false;
    let listed = 0;
    mockFetch((url) => {
      const path = url.pathname.replace('/api', '');
      if (path === '/clip.merchant_visual_editing/index') return ok({ rows: [project({})], total: 1 });
      if (path === '/clip.merchant_project/index') {
        polls += 1;
        // the third look finds the source done; only from then on are all three slices listed
        if (polls >= 3) finished = true;
        return ok({ rows: [finished ? source({ state: 'success', progress: 100, slices: 3 }) : source({ progress: 50 })], total: 1 });
      }
      if (path === '/clip.merchant_visual_editing/video_library') {
        listed += 1;
        const rows = finished ? [slice(101, 0), slice(102, 4), slice(103, 8)] : [slice(101, 0)];
        return ok({ rows, total: rows.length });
      }
      if (path.endsWith('/video_resource_group_index')) return ok({ rows: [{ id: 9, name: 'Slices', kind: 'video', count: 3, ready: 3 }], total: 1 });
      return ok({ rows: [], total: 0 });
    });
    // every look at the slices while the source was still slicing found one slice
    renderPage(<BatchSlicePage pollMs={60} />, { route: '/batch_slice' });
    fireEvent.click(await screen.findByTestId('slice-open-5'));
    const detail = await screen.findByTestId('slice-detail');
    await waitFor(() => expect(within(detail).getByTestId('source-state-31')).toHaveTextContent('Done'), { timeout: 5000 });
    await waitFor(() => expect(within(detail).getAllByTestId(/^slice-card-/)).toHaveLength(3), { timeout: 5000 });
    expect(within(detail).getByTestId('slice-count')).toHaveTextContent('Slices (3)');
    expect(listed).toBeGreaterThan(1);
  });

  it('plays and deletes a slice, moves all slices into a group, starts all', async () => {
    polls = 5;
    renderPage(<BatchSlicePage pollMs={60} />, { route: '/batch_slice' });
    fireEvent.click(await screen.findByTestId('slice-open-5'));
    const detail = await screen.findByTestId('slice-detail');
    await waitFor(() => expect(within(detail).getAllByTestId(/^slice-card-/)).toHaveLength(3));
    fireEvent.click(within(detail).getByTestId('slice-play-102'));
    expect(await screen.findByTestId('slice-video')).toHaveAttribute('src', '/files/102/mezzanine');
    fireEvent.click(within(detail).getByTestId('slice-delete-102'));
    await act(async () => fireEvent.click(await screen.findByTestId('slice-delete-ok-102')));
    await waitFor(() => expect(sent.find((s) => s.url.endsWith('/video_delete'))?.body).toEqual({ ids: [102] }));

    fireEvent.mouseDown(within(within(detail).getByTestId('slice-move-group').closest('.ant-select')!).getByRole('combobox'));
    fireEvent.click((await screen.findAllByTitle('Picked')).at(-1)!);
    await act(async () => fireEvent.click(within(detail).getByTestId('slice-move-all')));
    await waitFor(() => expect(sent.find((s) => s.url.endsWith('/job_video_add_all'))?.body).toEqual({ project_id: 5, group_id: 10 }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('3 slice(s) moved into Picked'));

    await act(async () => fireEvent.click(within(detail).getByTestId('slice-start-all')));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Nothing to start: every video is sliced or being sliced'));
    expect(sent.find((s) => s.url.endsWith('/job_export'))?.body).toEqual({ id: 5 });
  });
});
