import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import SystemAppPage from '.';

beforeAll(async () => {
  await import('../i18n');
});

const failed = {
  ok: false,
  step: 'upload',
  zh: '上传失败：找不到上传入口',
  en: 'upload failed: no file input',
  at: Date.UTC(2026, 10, 30, 1),
  account_id: 4,
  paused: true,
};
const app = (platform: string, over: Record<string, unknown> = {}) => ({
  platform,
  auth_kind: platform === 'xhs' || platform === 'sph' || platform === 'shop' ? 'qr_session' : 'oauth',
  configured: false,
  client_key: '',
  mode: 'sandbox',
  checkable: platform === 'xhs' || platform === 'sph' || platform === 'shop',
  canary: null,
  ...over,
});

let posts: { path: string; body: Record<string, unknown> }[];
let feedback: ReturnType<typeof spyFeedback>;
let xhs: Record<string, unknown>;
beforeEach(() => {
  posts = [];
  feedback = spyFeedback();
  xhs = app('xhs', { canary: failed });
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    posts.push({ path, body });
    if (path === '/system/app/index') return ok({ rows: [app('dy'), xhs, app('sph')] });
    if (path === '/system/app/vendor') return ok({ vendor: 'tikhub', configured: false, api_key: '', source: 'sandbox' });
    if (path === '/system/app/canary') {
      xhs = app('xhs', { canary: { ...failed, ok: true, step: '', zh: '', en: '', paused: false } });
      return ok(xhs.canary);
    }
    if (path === '/system/app/canary_resume') {
      xhs = app('xhs', { canary: { ...failed, paused: false } });
      return ok(xhs.canary);
    }
    return ok({});
  });
});

describe('/system/app page check', () => {
  it('shows a failed check that paused the platform, and runs the check again', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<SystemAppPage />, { route: '/system/app' });
    const state = await screen.findByTestId('canary-state-xhs');
    expect(state.dataset.state).toBe('failed');
    expect(state.dataset.reason).toBe('上传失败：找不到上传入口');
    expect(screen.getByTestId('canary-paused-xhs').textContent).toBe('已暂停发布');
    // Never checked; not a console platform: no cell.
    expect(screen.getByTestId('canary-state-sph').dataset.state).toBe('never');
    expect(screen.queryByTestId('canary-run-dy')).toBeNull();
    fireEvent.click(screen.getByTestId('canary-run-xhs'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('小红书 页面检查通过'));
    expect(posts.find((p) => p.path === '/system/app/canary')?.body).toEqual({ platform: 'xhs' });
    await waitFor(() => expect(screen.getByTestId('canary-state-xhs').dataset.state).toBe('passed'));
    expect(screen.queryByTestId('canary-paused-xhs')).toBeNull();
  });

  it('resumes a paused platform in English, the reason in English', async () => {
    await i18n.changeLanguage('en');
    renderPage(<SystemAppPage />, { route: '/system/app' });
    expect((await screen.findByTestId('canary-state-xhs')).dataset.reason).toBe('upload failed: no file input');
    fireEvent.click(screen.getByTestId('canary-resume-xhs'));
    fireEvent.click(await screen.findByTestId('canary-resume-ok-xhs'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Publishing on Xiaohongshu resumed'));
    expect(posts.find((p) => p.path === '/system/app/canary_resume')?.body).toEqual({ platform: 'xhs' });
    await waitFor(() => expect(screen.queryByTestId('canary-paused-xhs')).toBeNull());
  });
});
