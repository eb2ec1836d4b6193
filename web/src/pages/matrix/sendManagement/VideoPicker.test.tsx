import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import VideoPicker from './VideoPicker';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

let sent: Record<string, unknown>[];
let refuse: string | null;

beforeEach(() => {
  sent = [];
  refuse = null;
  spyFeedback();
  mockFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : {};
    if (url.pathname.endsWith('/forward_video')) {
      sent.push(body);
      if (refuse) return json({ code: 422, message: refuse, data: { field: 'name' } }, 422);
      const all = [
        { key: 'v:10', id: 10, source: 'library', name: 'Sun hat #10', cover: null, src: null, duration_ms: 15000, used: 0, project_id: 1 },
        { key: 'v:11', id: 11, source: 'library', name: 'Beach day #11', cover: null, src: null, duration_ms: 15000, used: 0, project_id: 2 },
      ];
      const want = (body.filterObj?.name as string | undefined)?.replace(/\|include$/, '').toLowerCase();
      const rows = want ? all.filter((v) => v.name.toLowerCase().includes(want)) : all;
      return ok({ rows, total: rows.length });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const search = (text: string) => {
  const box = screen.getByTestId('video-search').querySelector('input') ?? screen.getByTestId('video-search');
  fireEvent.change(box, { target: { value: text } });
  fireEvent.click(screen.getByTestId('video-search').querySelector('.ant-input-search-btn')!);
};

describe('release video picker search', { timeout: 60_000 }, () => {
  it('filters by name, says when nothing matches, and shows a failed load as an error, not as "no videos"', async () => {
    renderPage(<VideoPicker value={[]} onChange={() => undefined} />, { route: '/send_management' });
    await screen.findByTestId('video-card-v:10');
    search('sun');
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ source: 'library', filterObj: { name: 'sun|include' } }));
    await screen.findByTestId('video-card-v:10');
    expect(screen.queryByTestId('video-card-v:11')).toBeNull();

    search('scarf');
    await waitFor(() => expect(sent.at(-1)).toMatchObject({ filterObj: { name: 'scarf|include' } }));
    expect(await screen.findByTestId('video-picker-empty')).toHaveTextContent('No video whose name contains “scarf”');

    refuse = 'Name: invalid value: is not a filterable field';
    search('straw');
    const error = await screen.findByTestId('video-picker-error');
    expect(error).toHaveTextContent('The videos could not be loaded: Name: invalid value: is not a filterable field');
    expect(screen.queryByTestId('video-picker-empty')).toBeNull();
  });
});
