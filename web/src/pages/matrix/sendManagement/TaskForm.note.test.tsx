import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage } from '@/test/utils';
import TaskForm from './TaskForm';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const acc = (id: number) => ({ id, platform: 'dy', nickname: `acc-${id}`, avatar: null, status: 'active', expires_at: Date.UTC(2030, 0, 1) });
const image = (id: number) => ({ id, name: `pic-${id}.png`, src: `/files/${id}/original`, poster: null, fileName: `pic-${id}.png` });
const PLAN = { items: [], count: 1, per_account: { min: 1, max: 1 }, first_at: null, last_at: null, unplaced: 0, warnings: [], seed: 7, planned_at: 1 };

let sent: { path: string; body: Record<string, unknown> }[];

beforeEach(() => {
  sent = [];
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    sent.push({ path, body });
    if (path.endsWith('/dy_forward_config')) return ok({ platform: 'dy', limits: { title_max: 50, comment_max: 30, comment_pick: 5, per_account_day: 3, sources: '' }, mount_types: [], accounts: [], sandbox: false });
    if (path.endsWith('/getAccountGroup')) return ok({ rows: [{ id: 0, name: '', accounts: [acc(1), acc(2)] }] });
    if (path.endsWith('/image_index')) return ok({ rows: [image(20), image(21)], total: 2 });
    if (path.endsWith('/forward_video')) return ok({ rows: [{ key: 'library:10', id: 10, source: 'library', name: 'Spring #10', cover: null, src: null, duration_ms: 15000, used: false, project_id: 1 }], total: 1 });
    if (path.endsWith('/dy_add')) return ok(PLAN);
    return ok({ rows: [] });
  });
});
afterEach(() => vi.unstubAllGlobals());

const next = () => fireEvent.click(screen.getByTestId('step-next'));
const shown = (i: number) => expect(screen.getByTestId(`task-step-${i}`)).toHaveStyle({ display: 'block' });
const wait = { timeout: 5000 };

describe('the release task form: video or image note', { timeout: 120_000 }, () => {
  it('switches step 2 to the image library and frames, checks 1–18 pictures and sends an image note', async () => {
    renderPage(<TaskForm open onClose={() => undefined} onCreated={() => undefined} />, { route: '/send_management' });
    fireEvent.change(await screen.findByTestId('task-name'), { target: { value: 'Notes' } });
    fireEvent.click(await screen.findByTestId('account-check-1'));
    fireEvent.click(screen.getByTestId('account-check-2'));
    next();
    await waitFor(() => shown(1), wait);
    expect(screen.getByTestId('video-picker')).toBeVisible();

    fireEvent.click(screen.getByTestId('task-kind-image_note'));
    // Pictures in the order they are picked; none is refused before anything is sent.
    fireEvent.click(await screen.findByTestId('note-image-21'));
    fireEvent.click(screen.getByTestId('note-image-21'));
    next();
    expect(await screen.findByText('Pick at least 1 picture (now 0)')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('note-image-21'));
    fireEvent.click(screen.getByTestId('note-image-20'));
    expect(screen.getByTestId('note-image-21')).toHaveAttribute('aria-pressed', 'true');
    next();
    await waitFor(() => shown(2), wait);

    fireEvent.change(screen.getByTestId('task-titles'), { target: { value: 'Two pictures' } });
    fireEvent.change(screen.getByTestId('task-topics').querySelector('input')!, { target: { value: 'spring' } });
    fireEvent.keyDown(screen.getByTestId('task-topics').querySelector('input')!, { key: 'Enter', code: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('task-topics')).toHaveTextContent('spring'));
    next();
    await waitFor(() => shown(3), wait);
    // One note on each account: the counts speak of accounts and pictures, not videos.
    expect(screen.getByTestId('task-counts')).toHaveTextContent('2 accounts, each posting this 2-picture note once');
    fireEvent.click(screen.getByTestId('plan-preview'));
    await waitFor(() => expect(sent.some((s) => s.path.endsWith('/dy_add'))).toBe(true), wait);
    const body = sent.find((s) => s.path.endsWith('/dy_add'))!.body;
    expect(body).toMatchObject({ kind: 'image_note', image_ids: [21, 20], video_ids: [], material_ids: [], account_ids: [1, 2], preview: true });
    expect(body.frames).toBeUndefined();
  });
});
