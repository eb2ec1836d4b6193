import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Project } from '@/api/clip/types';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import NormalModePage from '../normalMode';
import HighModePage from '.';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const project = (over: Partial<Project>): Project =>
  ({
    id: 6,
    name: 'Adv',
    mode: 'senior',
    status: 1,
    config: { groups: [{ group_id: 11 }, { group_id: 12 }, { group_id: 13 }], subtitles: { enabled: false }, cover_ms: 0, output_count: 3 },
    created_at: Date.UTC(2025, 0, 2),
    updated_at: Date.UTC(2025, 0, 2),
    capacity: 8,
    pool: 6,
    small_pool: true,
    fixed_slots: false,
    variants: { success: 1, processing: 0, failed: 0 },
    groups: [
      { id: 11, name: 'Opening', ready: 2 },
      { id: 12, name: 'Product', ready: 2 },
      { id: 13, name: 'Ending', ready: 2 },
    ],
    ...over,
  }) as Project;

let calls: { path: string; method: string; body: unknown }[];
let feedback: ReturnType<typeof spyFeedback>;
beforeEach(() => {
  calls = [];
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, method: init.method ?? 'GET', body });
    if (path === '/clip.merchant_senior_clip/index') return ok({ rows: [project({})], total: 1 });
    if (path === '/clip.merchant_much_clip/index')
      return ok({
        rows: [
          project({ id: 5, name: 'Quick', mode: 'normal', variants: { success: 1, processing: 3, failed: 0 }, progress: 40 }),
          // Burned text: a title on fixed slots, and a voice-over's subtitles on slots that move.
          project({ id: 7, name: 'Titled', mode: 'normal', fixed_slots: true, config: { ...project({}).config, title: { text: '春季上新', style: { size: 72, color: '#FFFFFF', position: 'top', font_id: null } } } }),
          project({ id: 8, name: 'Voiced', mode: 'normal', config: { ...project({}).config, voice: { media_id: 3, volume: 100 }, subtitles: { enabled: true, style: { size: 48, color: '#FFFFFF', position: 'bottom', font_id: null } } } }),
        ],
        total: 3,
      });
    if (path.endsWith('/preview_video'))
      return ok({ capacity_before: 8, capacity_after: 8 - body.count, max_use: 2, min_use: 1, max_spread: 1, balanced: true, points: body.count * 2, sequences: [] });
    if (path.endsWith('/job_video_add_all'))
      return ok({ capacity_before: 8, capacity_after: 0, max_use: 2, min_use: 1, max_spread: 1, balanced: true, points: 16, sequences: [], variant_ids: [1, 2, 3, 4, 5, 6, 7, 8] });
    if (path === '/clip.merchant_ai_clip_template/save') return ok({ id: 40, name: 'Quick' });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const posts = (suffix: string) => calls.filter((c) => c.method === 'POST' && c.path.endsWith(suffix)).map((c) => ({ path: c.path, body: c.body }));

describe('/high_modeVisualization_clip', { timeout: 60_000 }, () => {
  it('lists advanced projects, renders all remaining after confirming the points, deletes through the advanced call', async () => {
    renderPage(<HighModePage />, { route: '/high_modeVisualization_clip' });
    expect(await screen.findByTestId('high-mode-page')).toHaveTextContent('Advanced mode');
    expect(await screen.findByTestId('project-name-6')).toHaveTextContent('Adv');
    expect(screen.queryByTestId('project-progress-6')).toBeNull();
    expect(calls.some((c) => c.path === '/clip.merchant_much_clip/index')).toBe(false);
    expect(screen.getByTestId('project-add')).toHaveTextContent('New advanced project');

    fireEvent.click(screen.getByTestId('project-more-6'));
    fireEvent.click(await screen.findByTestId('project-render-all-6'));
    expect(screen.getByTestId('project-render-all-6')).toHaveTextContent('Render all remaining (8)');
    await waitFor(() => expect(screen.getByTestId('generate-points')).toHaveAttribute('data-points', '16'));
    expect(posts('/preview_video')).toEqual([{ path: '/clip.merchant_much_clip/preview_video', body: { id: 6, count: 8 } }]);
    await waitFor(() => expect(screen.getByTestId('generate-ok')).toBeEnabled());
    fireEvent.click(screen.getByTestId('generate-ok'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('8 videos queued (16 points)'));
    expect(posts('/job_video_add_all')).toEqual([{ path: '/clip.merchant_video_library/job_video_add_all', body: { id: 6 } }]);

    fireEvent.click(screen.getByTestId('project-delete-6'));
    fireEvent.click(await screen.findByTestId('project-delete-ok-6'));
    await waitFor(() => expect(posts('/delete')).toEqual([{ path: '/clip.merchant_senior_clip/delete', body: { id: 6 } }]));
  });

  it('/normal_mode is the same page on the quick-mix calls', async () => {
    renderPage(<NormalModePage />, { route: '/normal_mode' });
    expect(await screen.findByTestId('normal-mode-page')).toHaveTextContent('Quick mix');
    expect(await screen.findByTestId('project-name-5')).toHaveTextContent('Quick');
    expect(calls.some((c) => c.path === '/clip.merchant_senior_clip/index')).toBe(false);
    // A rendering batch shows its progress; a project with nothing rendering shows none.
    expect(screen.getByTestId('project-progress-5')).toHaveTextContent('40%');
    expect(screen.getByTestId('project-processing-5')).toHaveTextContent('3');
    // How fast subtitled batches render: only projects with burned text say it.
    expect(screen.queryByTestId('project-fixed-slots-5') ?? screen.queryByTestId('project-moving-slots-5')).toBeNull();
    expect(screen.getByTestId('project-fixed-slots-7')).toBeInTheDocument();
    fireEvent.mouseEnter(screen.getByTestId('project-moving-slots-8'));
    expect(await screen.findByText(/Give every group one shot length/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('project-delete-5'));
    fireEvent.click(await screen.findByTestId('project-delete-ok-5'));
    await waitFor(() => expect(posts('/delete')).toEqual([{ path: '/clip.merchant_much_clip/delete', body: { id: 5 } }]));
  });

  it('saves a project as a template', async () => {
    renderPage(<NormalModePage />, { route: '/normal_mode' });
    fireEvent.click(await screen.findByTestId('project-more-5'));
    fireEvent.click(await screen.findByTestId('project-template-5'));
    await waitFor(() => expect(posts('/save')).toEqual([{ path: '/clip.merchant_ai_clip_template/save', body: { project_id: 5 } }]));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith("Saved as template 'Quick'"));
  });
});
