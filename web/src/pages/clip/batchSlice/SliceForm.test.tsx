import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import SliceForm from './SliceForm';

const VIDEOS = [
  { id: 21, name: 'Live stream.mp4', kind: 'video', state: 'ready', duration_ms: 600000, group_id: 1, poster: null, asr_state: 'success' },
  { id: 22, name: 'Unboxing.mp4', kind: 'video', state: 'ready', duration_ms: 120000, group_id: 1, poster: null, asr_state: '' },
];
const GROUPS = [{ id: 9, name: 'Slices', kind: 'video', count: 0, ready: 0 }];

let sent: { url: string; body: Record<string, unknown> }[] = [];
let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  sent = [];
  feedback = spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    if (init.method === 'POST') sent.push({ url: path, body: JSON.parse(String(init.body)) });
    if (path.endsWith('/video_resource_group_index')) return ok({ rows: GROUPS, total: 1 });
    if (path.endsWith('/video_resource_detail')) return ok({ rows: VIDEOS, total: 2 });
    if (path.endsWith('/create_project')) {
      const body = JSON.parse(String(init.body));
      if (body.name === 'server says no')
        return json({ code: 422, message: "Video 'Unboxing.mp4' has no recognized subtitle lines; run subtitle recognition first", data: { field: 'resource_ids' } }, 422);
      return ok({ id: 7, ...body, sources: [], slices: 0, state: 'pending', group_name: 'Slices' });
    }
    if (path.endsWith('/job_export')) return ok({ queued: 1, project: { id: 7, name: 'Talk', sources: [], state: 'processing' } });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

async function pick(testId: string, title: string) {
  fireEvent.mouseDown(within(screen.getByTestId(testId).closest('.ant-select') ?? screen.getByTestId(testId)).getByRole('combobox'));
  const options = await screen.findAllByTitle(title);
  fireEvent.click(options.at(-1)!);
}

const submit = () => fireEvent.click(screen.getByTestId('slice-form-ok'));

describe('batch slice project form', { timeout: 60_000 }, () => {
  it('refuses an empty form, then creates a fixed-length project and starts it', async () => {
    const onSaved = vi.fn();
    renderPage(<SliceForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/batch_slice' });
    await screen.findByTestId('slice-form-name');
    await act(async () => submit());
    expect(await screen.findByText('Give the project a name', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(await screen.findByText('Pick at least one video')).toBeInTheDocument();
    expect(await screen.findByText('Pick the group the slices go into')).toBeInTheDocument();
    expect(feedback.warning).toHaveBeenCalledWith('Form verification failed, please check input!');
    expect(sent).toHaveLength(0);

    fireEvent.change(screen.getByTestId('slice-form-name'), { target: { value: 'Talk' } });
    await pick('slice-form-videos', 'Live stream.mp4');
    await pick('slice-form-group', 'Slices');
    const secs = screen.getByTestId('slice-form-seconds');
    fireEvent.change(secs.tagName === 'INPUT' ? secs : secs.querySelector('input')!, { target: { value: '4' } });
    await act(async () => submit());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent.map((s) => s.url)).toEqual(['/clip.merchant_visual_editing/create_project', '/clip.merchant_visual_editing/job_export']);
    expect(sent[0].body).toEqual({ name: 'Talk', mode: 'fixed', seconds: 4, group_id: 9, resource_ids: [21] });
    expect(sent[1].body).toEqual({ id: 7 });
  });

  it('subtitle mode warns about videos without subtitles, and the server 422 marks the videos field', async () => {
    const onSaved = vi.fn();
    renderPage(<SliceForm open project={null} onClose={() => undefined} onSaved={onSaved} />, { route: '/batch_slice' });
    fireEvent.change(await screen.findByTestId('slice-form-name'), { target: { value: 'server says no' } });
    await pick('slice-form-videos', 'Unboxing.mp4');
    await pick('slice-form-group', 'Slices');
    fireEvent.click(within(screen.getByTestId('slice-form-mode')).getByText('Subtitle timeline'));
    expect(await screen.findByTestId('slice-form-no-subtitles')).toHaveTextContent('No recognized subtitles yet: Unboxing.mp4');
    expect(screen.getByTestId('slice-form-min')).toBeInTheDocument();
    await act(async () => submit());
    expect(await screen.findByText('Some videos have no recognized subtitles: run subtitle recognition first', undefined, { timeout: 5000 })).toBeInTheDocument();
    expect(sent).toHaveLength(0);
    // Back to fixed length: the server's own check answers on the field.
    fireEvent.click(within(screen.getByTestId('slice-form-mode')).getByText('Fixed length'));
    await act(async () => submit());
    expect(
      await screen.findByText("Video 'Unboxing.mp4' has no recognized subtitle lines; run subtitle recognition first", undefined, { timeout: 5000 }),
    ).toBeInTheDocument();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('edits the settings of an existing project', async () => {
    const onSaved = vi.fn();
    const project = { id: 3, name: 'Old', mode: 'subtitle', seconds: 0, min_seconds: 3, max_seconds: 8, group_id: 9, group_name: 'Slices', state: 'success', sources: [], slices: 4, created_at: 0, updated_at: 0 } as const;
    renderPage(<SliceForm open project={{ ...project, sources: [] }} onClose={() => undefined} onSaved={onSaved} />, { route: '/batch_slice' });
    await screen.findByTestId('slice-form-min');
    expect(screen.queryByTestId('slice-form-videos')).toBeNull();
    const max = screen.getByTestId('slice-form-max');
    fireEvent.change(max.tagName === 'INPUT' ? max : max.querySelector('input')!, { target: { value: '12' } });
    await act(async () => submit());
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    expect(sent[0]).toEqual({ url: '/clip.merchant_project/modify', body: { project_id: 3, name: 'Old', mode: 'subtitle', min_seconds: 3, max_seconds: 12, group_id: 9 } });
  });

  it('Esc on a half-filled new project asks before it throws the input away', async () => {
    const onClose = vi.fn();
    renderPage(<SliceForm open project={null} onClose={onClose} onSaved={() => undefined} />, { route: '/batch_slice' });
    fireEvent.change(await screen.findByTestId('slice-form-name'), { target: { value: 'Talk' } });
    fireEvent.keyDown(screen.getByTestId('slice-form-wrap'), { key: 'Escape', keyCode: 27 });
    expect(onClose).not.toHaveBeenCalled();
    expect(feedback.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Discard your changes?' }));
    act(() => feedback.confirm.mock.calls[0][0].onOk());
    expect(onClose).toHaveBeenCalledTimes(1);
  });
});
