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
  title: '',
  state: 'rendering',
  progress: 64,
  reason: '',
  count: 5,
  seconds: 30,
  group_ids: [],
  voice: 'af_heart',
  template_id: null,
  script: ['Looking for beef noodles? Here it is.', 'Come and see for yourself!'],
  writer: 'llm',
  source: { kind: 'llm', model: 'qwen-plus', fallback_reason: '' },
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
let refuse: false | 'topic' | 'seconds' = false;
let failedAt: OneTouchJob['failed_step'];
beforeEach(() => {
  calls = [];
  refuse = false;
  failedAt = undefined;
  spyFeedback();
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path, method: init.method ?? 'GET', body });
    if (path === '/events') return new Response('', { status: 204 });
    if (path.endsWith('/getVideoProject')) return ok({ rows: failedAt ? [job({ state: 'failed', failed_step: failedAt, reason: 'footage too short' })] : [job({})], total: 1 });
    if (path.endsWith('/getImgProject'))
      return ok({
        rows: [
          job({
            id: 7,
            kind: 'image',
            name: 'Noodle photos',
            state: 'done',
            progress: 100,
            project_id: 30,
            shots: [{ group_id: 0, group_name: 'Noodle close-up', text: 'x', start_ms: 0, max_ms: 5000, score: 1, images: [41, 42, 43] }],
          }),
        ],
        total: 1,
      });
    if (path.endsWith('/getImgList')) return ok({ rows: [{ id: 90, src: null, cover: null, progress: 100 }], total: 1 });
    if (path.endsWith('/image_index')) return ok({ rows: [{ id: 5, kind: 'image', parent_id: 0, name: 'Dishes', sort: 0, created_at: 0 }], total: 1 });
    if (path.endsWith('/getResourceGroupList')) return ok({ rows: [{ id: 11, name: 'Storefront', ready: 2, clip_ms: 8000, speech: false }], total: 1 });
    if (path === '/index/copyCheck') {
      const text = String((body as { text: string }).text);
      const at = text.indexOf('最好');
      return ok(
        at < 0
          ? { findings: [], blocked: false }
          : {
              findings: [{ start: at, end: at + 2, term: '最好', rule_id: 'ad.absolute.best', kind: 'absolute', severity: 'block', source: 'Advertising Law, Art. 9', explanation: 'No absolute claims', suggestion: '很好' }],
              blocked: true,
            },
      );
    }
    if (path.endsWith('/oneTouchNew')) {
      if (refuse === 'topic') return json({ code: 422, message: 'topic is required', data: { field: 'topic' } }, 422);
      if (refuse === 'seconds') return json({ code: 422, message: 'The video length must be 15–60 seconds', data: { field: 'seconds' } }, 422);
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
    expect(screen.getByTestId('one-touch-writer-3')).toHaveTextContent('LLM: qwen-plus');
    expect(screen.getByTestId('one-touch-shots-3')).toHaveTextContent('Storefront · 4s');
    expect(screen.getByTestId('one-touch-progress-3')).toHaveTextContent('64%');
    expect(screen.getByTestId('one-touch-page')).toHaveTextContent('10 points (2 per video, returned if a video fails)');

    fireEvent.change(screen.getByTestId('one-touch-topic'), { target: { value: '  Beef noodles  ' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/oneTouchNew')).map((c) => c.body)).toEqual([{ kind: 'video', seconds: 30, topic: 'Beef noodles', count: 5 }]),
    );
  });

  it('makes an image project with a target length and lists image projects apart', async () => {
    renderPage(<NewAiHomePage />, { route: '/oneKeyVideoNew' });
    await screen.findByTestId('one-touch-state-3');
    // Images as footage: the picker offers image categories instead of shot groups.
    fireEvent.click(screen.getByText('Images'));
    expect(await screen.findByTestId('one-touch-categories')).toBeInTheDocument();
    expect(screen.queryByTestId('one-touch-groups')).toBeNull();
    expect(screen.getByTestId('one-touch-page')).toHaveTextContent('Your images as a slideshow with pan and zoom, one per sentence');
    fireEvent.change(screen.getByTestId('one-touch-seconds'), { target: { value: '45' } });
    fireEvent.change(screen.getByTestId('one-touch-topic'), { target: { value: 'Beef noodles' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/oneTouchNew')).map((c) => c.body)).toEqual([{ kind: 'image', seconds: 45, topic: 'Beef noodles', count: 5, group_ids: [] }]),
    );
    // The new project's kind is the tab shown: image projects, their shots and videos (getImgList).
    expect(await screen.findByTestId('one-touch-kind-7')).toHaveTextContent('Images');
    expect(screen.getByTestId('one-touch-shots-7')).toHaveTextContent('Noodle close-up · 5s · 3 images');
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/getImgList'))).toBe(true));
    expect(screen.queryByTestId('one-touch-job-3')).toBeNull();
    fireEvent.click(screen.getByTestId('one-touch-tab-video'));
    expect(await screen.findByTestId('one-touch-job-3')).toBeInTheDocument();
  });

  it('flags an absolute claim in the topic and the title as typed, and applies the suggestion', async () => {
    renderPage(<NewAiHomePage />, { route: '/oneKeyVideoNew' });
    await screen.findByTestId('one-touch-state-3');
    fireEvent.change(screen.getByTestId('one-touch-topic'), { target: { value: '全城最好的牛肉面' } });
    const finding = await screen.findByTestId('one-touch-topic-copy-check-finding', {}, { timeout: 5000 });
    expect(finding).toHaveAttribute('data-severity', 'block');
    expect(finding).toHaveTextContent('Advertising Law, Art. 9');
    fireEvent.click(screen.getByTestId('one-touch-topic-copy-check-apply'));
    await waitFor(() => expect(screen.getByTestId('one-touch-topic')).toHaveValue('全城很好的牛肉面'));
    await waitFor(() => expect(screen.queryByTestId('one-touch-topic-copy-check-finding')).toBeNull(), { timeout: 5000 });

    fireEvent.change(screen.getByTestId('one-touch-title'), { target: { value: '最好吃' } });
    expect(await screen.findByTestId('one-touch-title-copy-check-finding', {}, { timeout: 5000 })).toHaveTextContent('最好');
    fireEvent.click(screen.getByTestId('one-touch-title-copy-check-apply'));
    await waitFor(() => expect(screen.getByTestId('one-touch-title')).toHaveValue('很好吃'));
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/oneTouchNew')).map((c) => c.body)).toEqual([
        { kind: 'video', seconds: 30, topic: '全城很好的牛肉面', title: '很好吃', count: 5 },
      ]),
    );
  });

  it('sends the video title apart from the project name, and marks the step a failed job stopped at', async () => {
    failedAt = 'match';
    renderPage(<NewAiHomePage />, { route: '/oneKeyVideoNew' });
    expect(await screen.findByTestId('one-touch-state-3')).toHaveTextContent('Failed');
    const steps = [...screen.getByTestId('one-touch-job-3').querySelectorAll('.ant-steps-item')];
    // The step bar blamed the first step (the script) whatever failed.
    expect(steps.map((s) => s.classList.contains('ant-steps-item-error'))).toEqual([false, false, true, false, false]);
    fireEvent.change(screen.getByTestId('one-touch-topic'), { target: { value: 'Sun hat: UPF 50+' } });
    fireEvent.change(screen.getByTestId('one-touch-title'), { target: { value: 'Sun hats are here' } });
    fireEvent.change(screen.getByTestId('one-touch-name'), { target: { value: 'hat batch 7' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    await waitFor(() =>
      expect(calls.filter((c) => c.path.endsWith('/oneTouchNew')).map((c) => c.body)).toEqual([
        { kind: 'video', seconds: 30, topic: 'Sun hat: UPF 50+', title: 'Sun hats are here', name: 'hat batch 7', count: 5 },
      ]),
    );
  });

  it('shows a refused target length at its field', async () => {
    refuse = 'seconds';
    renderPage(<NewAiHomePage />, { route: '/newAiHome' });
    fireEvent.change(await screen.findByTestId('one-touch-topic'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    expect(await screen.findByText('The video length must be 15–60 seconds')).toBeInTheDocument();
  });

  it('shows a refused field at the field', async () => {
    refuse = 'topic';
    renderPage(<NewAiHomePage />, { route: '/newAiHome' });
    fireEvent.change(await screen.findByTestId('one-touch-topic'), { target: { value: 'x' } });
    fireEvent.click(screen.getByTestId('one-touch-submit'));
    expect(await screen.findByText('topic is required')).toBeInTheDocument();
  });
});
