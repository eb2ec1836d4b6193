import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import GenerateDialog from './GenerateDialog';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const plan = (n: number) => ({
  capacity_before: 8,
  capacity_after: 8 - n,
  max_use: 3,
  min_use: 2,
  max_spread: 1,
  balanced: true,
  points: n * 2,
  sequences: Array.from({ length: n }, () => [{ id: 1, name: 'a' }]),
  max_shared: 1,
  slots: 3,
  lacking: [] as { group_id: number; name: string; clips: number }[],
});

describe('generate dialog', { timeout: 60_000 }, () => {
  it('shows the points of the plan, and the server message when generating is refused (422)', async () => {
    const posts: { path: string; body: { id: number; count: number } }[] = [];
    mockFetch((url, init) => {
      const path = url.pathname.replace('/api', '');
      const body = JSON.parse(String(init.body ?? '{}'));
      posts.push({ path, body });
      if (path.endsWith('/preview_video')) return ok(plan(body.count));
      if (path.endsWith('/add_video')) return json({ code: 422, message: 'Not enough points: 10 needed, 4 left', data: { field: 'points' } }, 422);
      return ok({});
    });
    const onDone = vi.fn();
    renderPage(<GenerateDialog target={{ id: 3, name: 'Spring', output_count: 5, capacity: 8 }} mode="generate" onClose={() => undefined} onDone={onDone} />, {
      route: '/normal_mode',
    });
    const points = await screen.findByTestId('generate-points');
    await waitFor(() => expect(points).toHaveTextContent('5 unique videos will be rendered for 10 points.'));
    expect(posts.find((p) => p.path.endsWith('/preview_video'))?.body).toEqual({ id: 3, count: 5 });
    await waitFor(() => expect(screen.getByTestId('generate-ok')).toBeEnabled());
    expect(screen.getByTestId('generate-ok')).toHaveTextContent('Generate (10 points)');
    fireEvent.click(screen.getByTestId('generate-ok'));
    expect(await screen.findByTestId('generate-failed')).toHaveTextContent('Not enough points: 10 needed, 4 left');
    expect(posts.find((p) => p.path.endsWith('/add_video'))?.body).toEqual({ id: 3, count: 5 });
    expect(onDone).not.toHaveBeenCalled();
  });

  it('says when some videos would share most of their shots, and which groups need more clips', async () => {
    mockFetch((url) => {
      if (url.pathname.endsWith('/preview_video'))
        return ok({
          ...plan(5),
          max_shared: 2,
          lacking: [
            { group_id: 7, name: 'Open', clips: 3 },
            { group_id: 8, name: 'Close', clips: 1 },
          ],
        });
      return ok({});
    });
    renderPage(<GenerateDialog target={{ id: 3, name: 'Spring', output_count: 5, capacity: 8 }} mode="generate" onClose={() => undefined} onDone={() => undefined} />, {
      route: '/normal_mode',
    });
    const alike = await screen.findByTestId('generate-alike');
    expect(alike).toHaveTextContent('Some videos share 2 of 3 shots: a duplicate check may see them as one video (high duplicate risk)');
    expect(alike).toHaveTextContent('add 3 clips to the shot group "Open"; add 1 clip to the shot group "Close"');
    // Still allowed: the merchant decides.
    await waitFor(() => expect(screen.getByTestId('generate-ok')).toBeEnabled());
  });

  it('"continue adding" asks continue_add_video, and an over-capacity preview blocks it', async () => {
    mockFetch((url, init) => {
      const path = url.pathname.replace('/api', '');
      const body = JSON.parse(String(init.body ?? '{}'));
      if (path.endsWith('/preview_video') && body.count > 2)
        return json({ code: 422, message: 'These shot groups allow only 2 more unique videos, not 3', data: { field: 'count' } }, 422);
      if (path.endsWith('/preview_video')) return ok(plan(body.count));
      if (path.endsWith('/continue_add_video')) return ok({ ...plan(body.count), variant_ids: [21, 22] });
      return ok({});
    });
    const onDone = vi.fn();
    renderPage(<GenerateDialog target={{ id: 3, name: 'Spring', output_count: 3 }} mode="continue" onClose={() => undefined} onDone={onDone} />, {
      route: '/piece_rep',
    });
    expect(await screen.findByTestId('generate-error')).toHaveTextContent('These shot groups allow only 2 more unique videos, not 3');
    expect(screen.getByTestId('generate-ok')).toBeDisabled();
    fireEvent.change(screen.getByTestId('generate-count'), { target: { value: '2' } });
    await waitFor(() => expect(screen.getByTestId('generate-points')).toHaveTextContent('for 4 points'));
    await waitFor(() => expect(screen.getByTestId('generate-ok')).toBeEnabled());
    fireEvent.click(screen.getByTestId('generate-ok'));
    await waitFor(() => expect(onDone).toHaveBeenCalled());
    expect(onDone.mock.calls[0][0].variant_ids).toEqual([21, 22]);
  });

  it('says before generating how many combinations are shorter than the voice-over and are not made', async () => {
    mockFetch((url, init) => {
      const body = JSON.parse(String(init.body ?? '{}'));
      return url.pathname.endsWith('/preview_video') ? ok(plan(body.count)) : ok({});
    });
    renderPage(
      <GenerateDialog target={{ id: 3, name: 'Spring', output_count: 2, capacity: 4, short: 4, voice_ms: 20300 }} mode="generate" onClose={() => undefined} onDone={() => undefined} />,
      { route: '/normal_mode' },
    );
    expect(await screen.findByTestId('generate-short')).toHaveTextContent(
      '4 more combinations are shorter than the voice-over (20.3 s): they would cut it off and are not made',
    );
  });
});
