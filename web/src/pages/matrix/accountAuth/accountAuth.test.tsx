import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Account } from '@/api/matrix/types';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import AccountAuthPage from '.';
import { browser } from '../shared/browser';

beforeAll(async () => {
  // antd forms validate asynchronously; the machine is shared with builds
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const account = (over: Partial<Account> = {}): Account => ({
  id: 1,
  platform: 'dy',
  open_id: 'o1',
  nickname: 'Shop One',
  avatar: '',
  account_type: 'personal',
  group_id: 0,
  group_name: '',
  status: 'active',
  expires_at: Date.UTC(2025, 5, 1),
  token_expires_at: Date.UTC(2025, 5, 1),
  revoked_reason: '',
  province: '',
  city: '',
  poi_id: '',
  poi_name: '',
  poi_address: '',
  remarks: '',
  proxy: '',
  videos: 3,
  plays: 1200,
  comments: 4,
  likes: 50,
  synced_at: 0,
  sandbox: false,
  created_at: Date.UTC(2025, 0, 1),
  actions: [
    { action: 'renew', enabled: true },
    { action: 'reauthorize', enabled: true },
  ],
  last_check: null,
  profile_bytes: 0,
  ...over,
});

let feedback: ReturnType<typeof spyFeedback>;
let posts: { path: string; body: Record<string, unknown> }[];
let accountLoads: number;
let qrScript: Array<Record<string, unknown>>;
/** The console's own QR a browser-flow start answers with (none: a QR made from qr_url). */
let qrImage: string | undefined;

beforeEach(() => {
  feedback = spyFeedback();
  posts = [];
  accountLoads = 0;
  qrScript = [];
  qrImage = undefined;
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    posts.push({ path, body });
    if (path.endsWith('_forward_config')) {
      const p = path.split('/').pop()!.replace('_forward_config', '');
      return ok({ platform: p, limits: {}, mount_types: [], accounts: p === 'dy' ? [account()] : [], sandbox: p === 'xhs' });
    }
    if (path === '/task.merchant_matrix_group/index') return ok({ rows: [{ id: 5, name: 'East', accounts: 1, created_at: 0 }], total: 1 });
    if (path === '/task.merchant_group_user/index') {
      accountLoads += 1;
      return ok({
        rows: [account(), account({ id: 2, platform: 'xhs', nickname: 'Red Note', status: 'expiring', profile_bytes: 2048, last_check: { at: Date.UTC(2025, 0, 2), ok: false, reason: 'the console shows its login page' } })],
        total: 2,
        summary: { active: 1, expiring: 1, expired: 0 },
      });
    }
    if (path === '/task.merchant_group_user/get_qrCode') {
      if (body.proxy === 'ftp://x') return json({ code: 422, message: 'The proxy must be an http:// or socks5:// URL', data: { field: 'proxy' } }, 422);
      if (body.platform === 'dy') return ok({ kind: 'oauth', url: 'https://open.douyin.test/consent?state=abc' });
      return ok({ kind: 'qr', login_id: `L-${posts.length}`, qr_url: `https://qr.test/${body.platform}/${posts.length}`, expires_at: Date.now() + 120_000, ...(qrImage ? { qr_image: qrImage } : {}) });
    }
    if (path === '/task.merchant_group_user/xhsLogin' || path === '/task.merchant_group_user/sphLogin' || path === '/task.merchant_group_user/qr_login') {
      const next = qrScript.shift() ?? { state: 'qr_pending' };
      return ok({ login_id: body.login_id, ...next });
    }
    if (path === '/task.merchant_group_user/bjhLogin') {
      if (body.app_token === 'bad') return json({ code: 422, message: 'The platform refused the app id / token', data: {} }, 422);
      return ok(account({ id: 9, platform: 'bjh', nickname: 'Baijia' }));
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  setFeedback(null);
});

describe('/account_auth platform cards', { timeout: 60_000 }, () => {
  it('shows the six cards with a sandbox notice, and the accounts with their status tags', async () => {
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    for (const p of ['dy', 'ks', 'sph', 'xhs', 'bjh', 'shop']) expect(screen.getByTestId(`auth-${p}`)).toBeInTheDocument();
    expect(await screen.findByTestId('sandbox-xhs')).toHaveTextContent('Sandbox');
    expect(screen.queryByTestId('sandbox-dy')).toBeNull();
    expect(await screen.findByTestId('account-status-2')).toHaveAttribute('data-status', 'expiring');
    expect(screen.getByTestId('account-status-2')).toHaveTextContent('Expiring');
    expect(screen.getByTestId('account-status-1')).toHaveTextContent('Active');
    expect(screen.getByTestId('account-counts-1')).toHaveTextContent('Plays 1,200');
    // A console account's last session check; never checked: nothing.
    expect(screen.getByTestId('account-check-2')).toHaveAttribute('data-ok', 'false');
    expect(screen.getByTestId('account-check-2')).toHaveTextContent('Not logged in');
    expect(screen.queryByTestId('account-check-1')).toBeNull();
    // The console account's stored login (for every worker node) and its size; none for an open-API account.
    expect(screen.getByTestId('account-profile-2')).toHaveTextContent('Stored login: 2.00 KB');
    expect(screen.queryByTestId('account-profile-1')).toBeNull();
  });

  it('DY: opens the consent page in this window', async () => {
    const assign = vi.spyOn(browser, 'assign').mockImplementation(() => undefined);
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    fireEvent.click(screen.getByTestId('auth-dy'));
    await waitFor(() => expect(assign).toHaveBeenCalledWith('https://open.douyin.test/consent?state=abc'));
    expect(posts).toContainEqual({ path: '/task.merchant_group_user/get_qrCode', body: { platform: 'dy' } });
  });

  it('back from the consent page: says so, clears the query and reloads the accounts', async () => {
    renderPage(<AccountAuthPage />, { route: '/account_auth?authorized=7' });
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Account authorized'));
    await waitFor(() => expect(accountLoads).toBeGreaterThanOrEqual(2));
  });

  it('back with an error: shows the message', async () => {
    renderPage(<AccountAuthPage />, { route: '/account_auth?auth_error=access%20denied' });
    await waitFor(() => expect(feedback.error).toHaveBeenCalledWith('Authorization failed: access denied'));
  });

  it('XHS: shows the QR code and its link, polls every 2 s, asks for the SMS code, then completes', async () => {
    qrScript = [{ state: 'qr_pending' }, { state: 'sms_challenge' }, { state: 'logged_in', account: account({ id: 3, platform: 'xhs', nickname: 'Red Two' }) }];
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    await screen.findByTestId('account-status-1');
    const loadsBefore = accountLoads;
    fireEvent.click(screen.getByTestId('auth-xhs'));
    const link = await screen.findByTestId('qr-link');
    const start = posts.find((p) => p.path.endsWith('/get_qrCode'))!;
    expect(start.body).toEqual({ platform: 'xhs' });
    expect(link).toHaveAttribute('target', '_blank');
    expect(link.getAttribute('href')).toMatch(/^https:\/\/qr\.test\/xhs\//);
    expect(screen.getByTestId('qr-image')).toBeInTheDocument();
    const loginId = `L-${posts.indexOf(start) + 1}`;

    // first poll after 2 s: still pending; second: the platform wants an SMS code
    await waitFor(() => expect(screen.getByTestId('qr-login-body')).toHaveAttribute('data-state', 'sms_challenge'), { timeout: 7000 });
    const polls = posts.filter((p) => p.path === '/task.merchant_group_user/xhsLogin');
    expect(polls).toHaveLength(2);
    expect(polls[0].body).toEqual({ login_id: loginId });
    // no more polling while the code is awaited
    await act(() => new Promise((r) => setTimeout(r, 2300)));
    expect(posts.filter((p) => p.path === '/task.merchant_group_user/xhsLogin')).toHaveLength(2);

    expect(screen.getByTestId('sms-submit')).toBeDisabled();
    fireEvent.change(screen.getByTestId('sms-code'), { target: { value: '12a3456' } });
    expect(screen.getByTestId('sms-code')).toHaveValue('123456');
    fireEvent.click(screen.getByTestId('sms-submit'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Account Red Two authorized'));
    expect(posts.filter((p) => p.path === '/task.merchant_group_user/xhsLogin').at(-1)!.body).toEqual({ login_id: loginId, sms_code: '123456' });
    await waitFor(() => expect(accountLoads).toBeGreaterThan(loadsBefore));
  });

  it("XHS through the creator console: shows the console's own QR image, not a generated one, follows the page's new QR, and polls it", async () => {
    qrImage = 'data:image/png;base64,iVBORw0KGgo=';
    const renewed = 'data:image/png;base64,iVBORw0KGgoNEW=';
    qrScript = [{ state: 'qr_pending', qr_image: renewed }, { state: 'logged_in', account: account({ id: 4, platform: 'xhs', nickname: 'Red Three' }) }];
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    fireEvent.click(screen.getByTestId('auth-xhs'));
    const img = await screen.findByTestId('qr-image');
    expect(img.tagName).toBe('IMG');
    expect(img).toHaveAttribute('src', qrImage);
    expect(img).toHaveAttribute('data-source', 'console');
    expect(img).toHaveAttribute('alt', 'The QR code of the Xiaohongshu login page');
    expect(screen.getByTestId('qr-console-hint')).toHaveTextContent("This QR code comes from the Xiaohongshu creator console's login page");
    // the console's login page is no page for a person to open here
    expect(screen.queryByTestId('qr-link')).toBeNull();
    // the platform replaced its QR: the dialog shows the new one
    await waitFor(() => expect(screen.getByTestId('qr-image')).toHaveAttribute('src', renewed), { timeout: 5000 });
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Account Red Three authorized'), { timeout: 7000 });
  });

  it('XHS through a proxy: a refused proxy is said at its field, an accepted one gives a new QR whose login goes through it', async () => {
    qrImage = 'data:image/png;base64,iVBORw0KGgo=';
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    fireEvent.click(screen.getByTestId('auth-xhs'));
    fireEvent.click(await screen.findByTestId('qr-proxy-open'));
    fireEvent.change(screen.getByTestId('qr-proxy'), { target: { value: 'ftp://x' } });
    fireEvent.click(screen.getByTestId('qr-proxy-apply'));
    expect(await screen.findByText('The proxy must be an http:// or socks5:// URL')).toBeInTheDocument();
    expect(feedback.error).not.toHaveBeenCalled();
    fireEvent.change(screen.getByTestId('qr-proxy'), { target: { value: ' socks5://u:secret@10.0.0.2:1080 ' } });
    fireEvent.click(screen.getByTestId('qr-proxy-apply'));
    expect(await screen.findByTestId('qr-proxy-used')).toHaveTextContent('This login goes through the proxy socks5://10.0.0.2:1080');
    const starts = posts.filter((p) => p.path.endsWith('/get_qrCode'));
    expect(starts.map((p) => p.body)).toEqual([
      { platform: 'xhs' },
      { platform: 'xhs', proxy: 'ftp://x' },
      { platform: 'xhs', proxy: 'socks5://u:secret@10.0.0.2:1080' },
    ]);
    // the new login is the one polled
    const last = `L-${posts.indexOf(starts[2]) + 1}`;
    await waitFor(() => expect(posts.some((p) => p.path.endsWith('/xhsLogin') && p.body.login_id === last)).toBe(true), { timeout: 5000 });
  });

  it('XHS: a slider puzzle is shown from the console, the place the person chose is sent, a refused place shows the new puzzle', async () => {
    qrImage = 'data:image/png;base64,iVBORw0KGgo=';
    const puzzle = 'data:image/png;base64,UFVaWkxF';
    const second = 'data:image/png;base64,U0VDT05E';
    qrScript = [
      { state: 'slider_challenge', challenge_image: puzzle },
      { state: 'slider_challenge', challenge_image: second },
      { state: 'logged_in', account: account({ id: 5, platform: 'xhs', nickname: 'Red Slide' }) },
    ];
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    fireEvent.click(screen.getByTestId('auth-xhs'));
    await screen.findByTestId('qr-image');
    const img = await screen.findByTestId('slider-image', {}, { timeout: 7000 });
    expect(img).toHaveAttribute('src', puzzle);
    expect(screen.getByTestId('slider-challenge')).toHaveTextContent('Xiaohongshu asks to solve a slider puzzle');
    const polls = () => posts.filter((p) => p.path === '/task.merchant_group_user/xhsLogin');
    // no polling while the puzzle waits for the person
    await act(() => new Promise((r) => setTimeout(r, 2300)));
    expect(polls()).toHaveLength(1);

    const handle = screen.getByRole('slider');
    for (let i = 0; i < 37; i++) fireEvent.keyDown(handle, { key: 'ArrowRight', keyCode: 39 });
    fireEvent.click(screen.getByTestId('slider-submit'));
    await screen.findByTestId('slider-error');
    expect(polls().at(-1)!.body).toMatchObject({ slide: 0.37 });
    expect(screen.getByTestId('slider-image')).toHaveAttribute('src', second);
    expect(screen.getByTestId('slider-error')).toHaveTextContent('did not take that place');

    for (let i = 0; i < 62; i++) fireEvent.keyDown(screen.getByRole('slider'), { key: 'ArrowRight', keyCode: 39 });
    fireEvent.click(screen.getByTestId('slider-submit'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Account Red Slide authorized'));
    expect(polls().at(-1)!.body).toMatchObject({ slide: 0.62 });
  });

  it('SPH: an expired code offers a new one, which is polled again; the shop platform polls qr_login', async () => {
    qrScript = [{ state: 'expired' }];
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    fireEvent.click(screen.getByTestId('auth-sph'));
    await screen.findByTestId('qr-link');
    fireEvent.click(await screen.findByTestId('qr-restart', undefined, { timeout: 5000 }));
    await waitFor(() => expect(posts.filter((p) => p.path.endsWith('/get_qrCode'))).toHaveLength(2));
    await waitFor(() => expect(screen.getByTestId('qr-login-body')).toHaveAttribute('data-state', 'qr_pending'));
    const second = posts.filter((p) => p.path.endsWith('/get_qrCode'))[1];
    qrScript = [{ state: 'logged_in' }];
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Account authorized'), { timeout: 5000 });
    expect(posts.filter((p) => p.path === '/task.merchant_group_user/sphLogin').at(-1)!.body).toEqual({ login_id: `L-${posts.indexOf(second) + 1}` });

    fireEvent.click(screen.getByTestId('auth-shop'));
    await screen.findByTestId('qr-link');
    await waitFor(() => expect(posts.some((p) => p.path === '/task.merchant_group_user/qr_login' && p.body.platform === 'shop')).toBe(true), { timeout: 5000 });
  });

  it('BJH: app id and token; a refusal is shown at the token', async () => {
    renderPage(<AccountAuthPage />, { route: '/account_auth' });
    fireEvent.click(screen.getByTestId('auth-bjh'));
    fireEvent.change(await screen.findByTestId('bjh-app-id'), { target: { value: 'app-1' } });
    fireEvent.change(screen.getByTestId('bjh-app-token'), { target: { value: 'bad' } });
    fireEvent.click(screen.getByTestId('bjh-form-ok'));
    expect(await screen.findByText('The platform refused the app id / token')).toBeInTheDocument();
    fireEvent.change(screen.getByTestId('bjh-app-token'), { target: { value: 'good' } });
    fireEvent.click(screen.getByTestId('bjh-form-ok'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Account Baijia authorized'));
    expect(posts).toContainEqual({ path: '/task.merchant_group_user/bjhLogin', body: { app_id: 'app-1', app_token: 'good' } });
  });
});
