import { fireEvent, screen, waitFor, within } from '@testing-library/react';
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
  mode_set: false,
  blocked: null,
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
    if (path === '/system/app/index')
      return ok({ rows: [app('dy'), xhs, app('sph'), app('bjh', { mode: 'off', mode_set: true, blocked: '百家号已在“平台应用”中关闭，不会向它发送任何请求' })] });
    if (path === '/system/app/services') return ok({ rows: [{ service: 'wechat', mode: 'live', mode_set: true }] });
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

const pick = async (testId: string, text: string) => {
  fireEvent.mouseDown(within(screen.getByTestId(testId)).getByRole('combobox'));
  const options = await screen.findAllByText(text);
  fireEvent.click(options.find((o) => o.closest('.ant-select-item-option')) ?? options[options.length - 1]);
};

describe('/system/app modes', () => {
  it('shows each platform’s own mode and why it cannot be reached, and switches one', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<SystemAppPage />, { route: '/system/app' });
    expect((await screen.findByTestId('app-mode-dy')).dataset.mode).toBe('sandbox');
    // Unset: the default, saying what it is now.
    expect(within(screen.getByTestId('app-mode-select-dy')).getByText('默认（沙箱）')).toBeTruthy();
    expect(screen.getByTestId('app-mode-bjh').dataset.mode).toBe('off');
    expect(screen.getByTestId('app-blocked-bjh').textContent).toBe('不可用：百家号已在“平台应用”中关闭，不会向它发送任何请求');
    expect(screen.queryByTestId('app-blocked-dy')).toBeNull();
    await pick('app-mode-select-dy', '正式');
    await waitFor(() => expect(posts.find((p) => p.path === '/system/app/mode')?.body).toEqual({ platform: 'dy', mode: 'live' }));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('抖音：正式'));
    // WeChat notices have their own mode.
    expect((await screen.findByTestId('app-mode-wechat')).dataset.mode).toBe('live');
  });

  it('says it in English', async () => {
    await i18n.changeLanguage('en');
    renderPage(<SystemAppPage />, { route: '/system/app' });
    expect(within(await screen.findByTestId('app-mode-select-dy')).getByText('Default (Sandbox)')).toBeTruthy();
    expect(screen.getByTestId('apps-mode-help').textContent).toContain('Accounts keep the mode they were authorized in');
    await pick('app-mode-select-wechat', 'Off');
    await waitFor(() => expect(posts.find((p) => p.path === '/system/app/mode')?.body).toEqual({ platform: 'wechat', mode: 'off' }));
  });
});
