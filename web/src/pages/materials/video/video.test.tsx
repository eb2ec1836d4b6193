import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { eventStream, mediaFile } from '@/test/media';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import VideoLibraryPage from '.';

// the material pages are heavy to render on a busy machine: give async queries time

const MR = '/api/media.merchant_much_resource';
const groups = [
  { id: 1, name: 'Opening', classify_id: 10, kind: 'video', sort: 1, count: 3, ready: 1, created_at: 1 },
  { id: 2, name: 'Product', classify_id: 0, kind: 'video', sort: 2, count: 0, ready: 0, created_at: 2 },
];
const clips = () => [
  mediaFile(11, { state: 'processing', progress: 40, poster: null, mezzanine: null }),
  mediaFile(12, { name: 'shot.mp4', asr_state: 'success' }),
  mediaFile(13, { state: 'failed', progress: 0, error: 'ffmpeg: Invalid data found when processing input' }),
  mediaFile(14, { kind: 'image', name: 'still.png', mime: 'image/png', duration_ms: 0, width: 640, height: 360 }),
];

let feedback: ReturnType<typeof spyFeedback>;
let calls: Array<{ path: string; body: unknown; query: URLSearchParams }>;
let events: ReturnType<typeof eventStream>;
let rows: ReturnType<typeof clips>;
let deleteAnswers: Array<() => Response>;
let eventsAnswer: () => Response;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  calls = [];
  events = eventStream();
  eventsAnswer = () => events.response();
  rows = clips();
  deleteAnswers = [];
  mockFetch((url, init) => {
    calls.push({ path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : undefined, query: url.searchParams });
    switch (url.pathname) {
      case '/api/events':
        return eventsAnswer();
      case `${MR}/resource_classify_index`:
        return ok([{ id: 10, name: 'Food', parent_id: 0, children: [] }]);
      case `${MR}/video_resource_group_index`:
        return ok({ rows: groups, total: 2 });
      case `${MR}/video_resource_detail`:
        return ok({ rows: url.searchParams.get('group_id') === '1' ? rows : [], total: rows.length });
      case `${MR}/resource_group_delete`:
        return (deleteAnswers.shift() ?? (() => ok({})))();
      default:
        return ok({});
    }
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const find = (id: string) => screen.findByTestId(id, {}, { timeout: 8000 });
const renderVideo = () => renderPage(<VideoLibraryPage />, { route: '/video' });
const listCalls = () => calls.filter((c) => c.path === `${MR}/video_resource_detail`);

describe('/video', () => {
  it('shows the classify tree, the groups with ready / all counts, and the first group\'s clips in every state', async () => {
    renderVideo();
    expect(await find('classify-node-10')).toHaveTextContent('Food');
    expect(await find('group-item-1')).toHaveAttribute('aria-pressed', 'true');
    expect(screen.getByTestId('group-count-1')).toHaveTextContent('1/3');
    expect(screen.getByTestId('group-item-0')).toHaveTextContent('Ungrouped');
    await find('video-row-11');
    expect(listCalls()[0].query.get('group_id')).toBe('1');

    const processing = screen.getByTestId('state-11');
    expect(processing).toHaveAttribute('data-state', 'processing');
    expect(processing).toHaveAttribute('data-progress', '40');
    expect(within(processing).getByText('40%')).toBeInTheDocument();
    expect(screen.getByTestId('state-12')).toHaveAttribute('data-state', 'ready');
    expect(screen.getByTestId('state-13')).toHaveAttribute('data-state', 'failed');
    expect(screen.getByTestId('state-13-error')).toHaveTextContent('ffmpeg: Invalid data found when processing input');
    // poster (image rows show themselves), duration, resolution
    expect(screen.getByTestId('thumb-12')).toHaveAttribute('src', '/files/12/poster?e=1&s=x');
    expect(screen.getByTestId('thumb-14')).toHaveAttribute('src', '/files/14/poster?e=1&s=x');
    expect(screen.getByTestId('thumb-11').tagName).toBe('DIV'); // no poster yet
    expect(within(screen.getByTestId('video-row-12')).getByText('0:02')).toBeInTheDocument();
    expect(within(screen.getByTestId('video-row-12')).getByText('720×1280')).toBeInTheDocument();
    // on one line ("1080×1920" wrapped inside the number)
    expect(within(screen.getByTestId('video-row-12')).getByText('720×1280')).toHaveStyle({ whiteSpace: 'nowrap' });
    // subtitles only for videos
    expect(screen.getByTestId('clip-subtitles-12')).toBeInTheDocument();
    expect(screen.queryByTestId('clip-subtitles-14')).toBeNull();
  });

  it('moves the progress bar with the event stream and reloads when a clip is ready', async () => {
    renderVideo();
    await find('video-row-11');
    const before = listCalls().length;
    act(() => events.send([{ id: 11, state: 'processing', progress: 80 }]));
    await waitFor(() => expect(screen.getByTestId('state-11')).toHaveAttribute('data-progress', '80'));
    rows = rows.map((r) => (r.id === 11 ? { ...r, state: 'ready' as const, progress: 100, poster: '/files/11/poster' } : r));
    act(() => events.send([{ id: 11, state: 'ready', progress: 100 }]));
    await waitFor(() => expect(screen.getByTestId('state-11')).toHaveAttribute('data-state', 'ready'));
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before));
    await waitFor(() => expect(screen.getByTestId('thumb-11')).toHaveAttribute('src', '/files/11/poster'));
  });

  it('polls every 2 s while the stream is down and something is processing', async () => {
    eventsAnswer = () => json({ code: 500, message: 'no' }, 500);
    renderVideo();
    await find('video-stream-down');
    await find('video-row-11');
    const before = listCalls().length;
    await waitFor(() => expect(listCalls().length).toBeGreaterThan(before), { timeout: 4000 });
  });

  it('deletes a group that holds materials only after the server\'s question is confirmed', async () => {
    deleteAnswers = [
      () => json({ code: 422, message: "This group still holds 3 materials; confirm to move them to 'ungrouped'", data: { field: 'confirm' } }, 422),
      () => ok({}),
    ];
    renderVideo();
    fireEvent.click(await find('group-delete-1'));
    await waitFor(() => expect(feedback.confirm).toHaveBeenCalled());
    const dialog = feedback.confirm.mock.calls[0][0];
    expect(dialog.title).toBe('Delete group Opening?');
    expect(dialog.content).toBe("This group still holds 3 materials; confirm to move them to 'ungrouped'");
    expect(feedback.error).not.toHaveBeenCalled(); // the first answer is a question, not an error
    act(() => dialog.onOk());
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Group Opening deleted'));
    const bodies = calls.filter((c) => c.path === `${MR}/resource_group_delete`).map((c) => c.body);
    expect(bodies).toEqual([{ id: 1 }, { id: 1, confirm: true }]);
  });

  it('an empty group goes at once', async () => {
    renderVideo();
    fireEvent.click(await find('group-delete-2'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Group Product deleted'));
    expect(feedback.confirm).not.toHaveBeenCalled();
  });

  it('plays a clip in the dialog from its playable copy', async () => {
    renderVideo();
    fireEvent.click(await find('clip-play-12'));
    const video = await find('media-player-video');
    expect(video).toHaveAttribute('src', '/files/12/mezzanine?e=1&s=x');
    expect(video).toHaveAttribute('controls');
  });

  it('choosing a category shows only its groups', async () => {
    renderVideo();
    await find('group-item-2');
    fireEvent.click(screen.getByTestId('classify-node-10'));
    await waitFor(() => expect(screen.queryByTestId('group-item-2')).toBeNull());
    expect(screen.getByTestId('group-item-1')).toBeInTheDocument();
  });
});
