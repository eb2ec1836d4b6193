import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { eventStream } from '@/test/media';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import TimelineEditor from './TimelineEditor';

// the material pages are heavy to render on a busy machine: give async queries time

const timeline = {
  resource_id: 5,
  duration: 10,
  src: '/files/5/original?e=1&s=x',
  asr_state: 'success',
  asr_error: '',
  lines: [
    { id: 1, start: 0, end: 1, content: 'first' },
    { id: 2, start: 1, end: 3, content: 'second' },
  ],
};

let feedback: ReturnType<typeof spyFeedback>;
let saves: unknown[];
let saveAnswer: () => Response;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  saves = [];
  saveAnswer = () => ok([]);
  const events = eventStream();
  mockFetch((url, init) => {
    if (url.pathname === '/api/events') return events.response();
    if (url.pathname === '/api/media.merchant_much_resource/get_asr_timeline') return ok(timeline);
    if (url.pathname === '/api/media.merchant_much_resource/save_asr_times') {
      saves.push(JSON.parse(String(init.body)));
      return saveAnswer();
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const open = async (withLines = true) => {
  renderPage(<TimelineEditor target={{ id: 5, name: 'clip.mp4', kind: 'video', duration_ms: 10_000 }} onClose={() => undefined} />, { route: '/video' });
  await screen.findByTestId('timeline-body', {}, { timeout: 8000 });
  // The lines arrive after the body on a loaded machine: wait for them too.
  if (withLines) await screen.findByTestId('timeline-seek-1', {}, { timeout: 8000 });
  return screen.getByTestId('timeline-player') as HTMLVideoElement;
};
const cell = (i: number, field: string) => screen.getByTestId(`timeline-lines-cell-${i}-${field}`) as HTMLInputElement;

describe('timeline editor', () => {
  it('plays the material and lists its lines with the recognition state', async () => {
    const player = await open();
    expect(player.tagName).toBe('VIDEO');
    expect(player.getAttribute('src')).toBe(timeline.src);
    expect(cell(0, 'content').value).toBe('first');
    expect(cell(1, 'start').value).toBe('1');
    expect(cell(1, 'end').value).toBe('3');
    expect(within(screen.getByTestId('timeline-state')).getByText('Subtitles ready')).toBeInTheDocument();
  });

  it('clicking a line seeks the player to its start', async () => {
    const player = await open();
    player.currentTime = 7;
    fireEvent.click(screen.getByTestId('timeline-seek-1'));
    expect(player.currentTime).toBe(1);
    fireEvent.click(screen.getByTestId('timeline-seek-0'));
    expect(player.currentTime).toBe(0);
  });

  it('sets a line\'s start and end from the player\'s current time, and adds a line there', async () => {
    const player = await open();
    player.currentTime = 1.234;
    fireEvent.click(screen.getByTestId('timeline-set-start-1'));
    await waitFor(() => expect(cell(1, 'start').value).toBe('1.23'));
    player.currentTime = 2.5;
    fireEvent.click(screen.getByTestId('timeline-set-end-1'));
    await waitFor(() => expect(cell(1, 'end').value).toBe('2.5'));
    player.currentTime = 4;
    fireEvent.click(screen.getByTestId('timeline-lines-add'));
    await waitFor(() => expect(cell(2, 'start').value).toBe('4'));
    expect(cell(2, 'end').value).toBe('6');
    expect(screen.getByTestId('timeline-dirty')).toBeInTheDocument();
  });

  it('shows a bad line\'s problem on the line and does not send it', async () => {
    const u = userEvent.setup();
    await open();
    await u.clear(cell(1, 'end'));
    await u.type(cell(1, 'end'), '0.5');
    expect(await screen.findByTestId('timeline-lines-cell-1-end-error')).toHaveTextContent('The end must come after the start');
    await u.clear(cell(0, 'content'));
    fireEvent.click(screen.getByTestId('timeline-save'));
    expect(await screen.findByTestId('timeline-lines-cell-0-content-error')).toHaveTextContent('Enter the subtitle text');
    expect(feedback.warning).toHaveBeenCalledWith('Some lines need fixing before saving');
    expect(saves).toHaveLength(0);
  });

  it('saves every line in seconds and shows the server\'s refusal on the line it names', async () => {
    const u = userEvent.setup();
    await open();
    await u.clear(cell(1, 'content'));
    await u.type(cell(1, 'content'), 'second, edited');
    saveAnswer = () => json({ code: 422, message: 'Invalid subtitle timing: 1 → 3: overlaps the line before', data: { field: 'lines' } }, 422);
    fireEvent.click(screen.getByTestId('timeline-save'));
    expect(await screen.findByTestId('timeline-lines-cell-1-end-error')).toHaveTextContent('Invalid subtitle timing: 1 → 3: overlaps the line before');
    expect(saves[0]).toEqual({
      resource_id: 5,
      lines: [
        { start: 0, end: 1, content: 'first' },
        { start: 1, end: 3, content: 'second, edited' },
      ],
    });
    expect(feedback.error).not.toHaveBeenCalled(); // shown on the line, not toasted

    saveAnswer = () => ok([{ id: 9, start: 0, end: 1, content: 'first' }, { id: 10, start: 1, end: 3, content: 'second, edited' }]);
    await waitFor(() => expect(screen.getByTestId('timeline-save')).not.toHaveClass('ant-btn-loading'));
    await act(async () => fireEvent.click(screen.getByTestId('timeline-save')));
    await waitFor(() => expect(saves).toHaveLength(2));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Subtitles saved'));
    expect(screen.queryByTestId('timeline-lines-cell-1-end-error')).toBeNull();
    expect(screen.queryByTestId('timeline-dirty')).toBeNull();
  });

  it('starts a recognition from the editor and tells the points charged', async () => {
    mockFetch((url) => {
      if (url.pathname === '/api/events') return eventStream().response();
      if (url.pathname === '/api/media.merchant_much_resource/get_asr_timeline') return ok({ ...timeline, asr_state: '', lines: [] });
      if (url.pathname === '/api/media.merchant_much_resource/asr_add') return ok({ job_id: 3, points: 1, asr_state: 'processing' });
      return ok({});
    });
    await open(false);
    expect(within(screen.getByTestId('timeline-state')).getByText('No subtitles')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('asr-recognize-5'));
    expect(await screen.findByText('Costs 1 points (1 point per started minute, refunded if it fails)')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('asr-recognize-ok-5'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Recognition started, 1 points charged'));
  });
});
