import { configure, fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage } from '@/test/utils';
import ShareModal from './ShareModal';

beforeAll(async () => {
  configure({ asyncUtilTimeout: 8000 });
  await import('../i18n');
  await i18n.changeLanguage('en');
});

let sent: { path: string; body: Record<string, unknown> }[];
let posted = false;

beforeEach(() => {
  sent = [];
  posted = false;
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    sent.push({ path, body });
    if (path.endsWith('/forward_video'))
      return ok(body.source === 'material' ? { rows: [], total: 0 } : { rows: [{ key: 'v:10', id: 10, source: 'library', name: 'spring.mp4' }], total: 1 });
    if (path.endsWith('/dy_share')) {
      if (body.share_id) return ok({ share_id: 's1', state: posted ? 'published' : 'waiting', item_id: posted ? '7001' : '' });
      return ok({ share_id: 's1', schema: 'snssdk1128://openplatform/share?share_type=h5&state=s1', expires_at: Date.UTC(2030, 0, 1), state: 'waiting' });
    }
    return ok({});
  });
});

describe('Douyin share link', () => {
  it('sends the chosen video, title and topics, shows the QR code and reports the post', async () => {
    renderPage(<ShareModal open onClose={() => undefined} />, { route: '/send_management' });
    await screen.findByText('Douyin share link (tap or scan to post)');
    await waitFor(() => expect(sent.map((s) => s.path)).toContain('/task.merchant_forward_task/forward_video'));
    fireEvent.mouseDown(screen.getByTestId('share-video').querySelector('.ant-select-selector') ?? screen.getByTestId('share-video'));
    fireEvent.click(await screen.findByText('spring.mp4'));
    fireEvent.change(screen.getByTestId('share-title'), { target: { value: 'Come by' } });
    const topics = screen.getByTestId('share-topics');
    fireEvent.mouseDown(topics.querySelector('.ant-select-selector') ?? topics);
    const tags = topics.querySelector('input')!;
    fireEvent.focus(tags);
    fireEvent.change(tags, { target: { value: 'food' } });
    fireEvent.keyDown(tags, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(screen.getByTestId('share-make'));
    await screen.findByTestId('share-waiting');
    const made = sent.find((s) => s.path.endsWith('/dy_share'))!;
    expect(made.body).toEqual({ video_key: 'v:10', title: 'Come by', topics: ['food'] });
    expect(screen.getByTestId('share-open')).toHaveAttribute('href', expect.stringContaining('snssdk1128://'));
    posted = true;
    expect(await screen.findByTestId('share-published', {}, { timeout: 8000 })).toHaveTextContent('7001');
  }, 60000);
});
