import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { UserRecord } from '@/api/auth/types';
import i18n from '@/i18n';
import UserDropdown from '@/layouts/components/UserDropdown';
import { getStoredUser, saveLogin } from '@/store/session';
import { merchantUser, operatorUser, staffUser } from '@/test/users';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { imageFile, installFakeXhr, type FakeXhr } from '@/test/xhr';
import { setFeedback } from '@/utils/feedback';
import { avatarBody } from './AvatarField';
import UserCenterPage from '.';

const merchant = merchantUser;
const operator = operatorUser;

const UPLOADED = '/files/7/original?e=1763800000000&s=abc';
const LASTING = '/files/7/original?e=4102444800000&s=def';

let Xhr: typeof FakeXhr;
let feedback: ReturnType<typeof spyFeedback>;
let calls: Array<{ path: string; body: unknown }>;

function signIn(user: UserRecord) {
  saveLogin({ token: 'jwt', expires_at: Date.now() + 3_600_000, remember: false, user });
  mockFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path: url.pathname, body });
    if (url.pathname === '/api/index/profile') return ok(user);
    if (url.pathname === '/api/index/editProfile') return ok({ ...user, nickname: body.nickname, avatar: body.avatar ? LASTING : '' });
    return ok({});
  });
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  calls = [];
  Xhr = installFakeXhr();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

// whole pages render here: slow on a busy machine
describe('user center avatar', { timeout: 60_000 }, () => {
  it('keeps the rest of the profile in the editProfile body (a missing mobile would be cleared)', () => {
    expect(avatarBody(merchant, UPLOADED)).toEqual({ nickname: 'Demo', avatar: UPLOADED });
    expect(avatarBody({ ...merchant, mobile: '13800000000' }, UPLOADED)).toEqual({ nickname: 'Demo', mobile: '13800000000', avatar: UPLOADED });
    expect(avatarBody({ ...merchant, nickname: '' }, '')).toEqual({ nickname: 'demo', avatar: '' });
  });

  it('uploads to the project library, saves {nickname, avatar: src} and shows the lasting link, in the header too', async () => {
    signIn(merchant);
    renderPage(<UserCenterPage />, { route: '/usercenter', path: '/usercenter' });
    const input = (await screen.findByTestId('avatar-upload-input')) as HTMLInputElement;
    // a gif skips the crop dialog (cropping would drop its animation); other types are cropped first
    fireEvent.change(input, { target: { files: [imageFile('me.gif', 'image/gif')] } });
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    const xhr = Xhr.all[0];
    expect(xhr.method).toBe('POST');
    expect(xhr.url).toBe('/api/common.tool/project_upload');
    expect((xhr.body!.get('file') as File).name).toBe('me.gif');
    expect(xhr.headers.Authorization).toBe('Bearer jwt');

    act(() => xhr.respond({ code: 200, message: 'ok', data: { src: UPLOADED, fileName: 'me.gif', id: 7 } }));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/index/editProfile')).toBeTruthy());
    expect(calls.find((c) => c.path === '/api/index/editProfile')!.body).toEqual({ nickname: 'Demo', avatar: UPLOADED });
    await waitFor(() => expect(screen.getByTestId('avatar-upload-img')).toHaveAttribute('src', LASTING));
    expect(feedback.success).toHaveBeenCalledWith('Avatar saved');
    expect(getStoredUser()?.avatar).toBe(LASTING);

    // the header's user dropdown reads the same user
    renderPage(<UserDropdown />, { route: '/x', path: '/x' });
    expect(screen.getByTestId('user-avatar').querySelector('img')).toHaveAttribute('src', LASTING);
  });

  it('removing the avatar saves an empty one', async () => {
    signIn({ ...merchant, avatar: LASTING });
    renderPage(<UserCenterPage />, { route: '/usercenter', path: '/usercenter' });
    fireEvent.click(await screen.findByTestId('avatar-upload-delete'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/index/editProfile')?.body).toEqual({ nickname: 'Demo', avatar: '' }));
    expect(Xhr.all).toHaveLength(0);
  });

  it('the operator (no merchant, so no image library) sees the avatar without an uploader', async () => {
    signIn(operator);
    renderPage(<UserCenterPage />, { route: '/usercenter', path: '/usercenter' });
    expect(await screen.findByTestId('avatar-readonly')).toHaveTextContent('cannot upload images');
    expect(screen.queryByTestId('avatar-upload')).toBeNull();
  });

  it("a staff member whose menus do not grant uploads reads about their staff account, not the operator's", async () => {
    signIn(staffUser);
    renderPage(<UserCenterPage />, { route: '/usercenter', path: '/usercenter' });
    const readonly = await screen.findByTestId('avatar-readonly');
    expect(readonly).toHaveTextContent('This staff account may not upload images');
    expect(readonly).not.toHaveTextContent('operator');
    // the sign-in name is the staff member's own staff account, not an enterprise account
    expect(screen.getByText('Staff account')).toBeInTheDocument();
    expect(screen.queryByText('Enterprise account')).toBeNull();
  });

  it('in Chinese the staff profile says 员工账号, never 运营账号', async () => {
    await i18n.changeLanguage('zh-CN');
    try {
      signIn(staffUser);
      renderPage(<UserCenterPage />, { route: '/usercenter', path: '/usercenter' });
      const readonly = await screen.findByTestId('avatar-readonly');
      expect(readonly).toHaveTextContent('员工账号');
      expect(document.body).not.toHaveTextContent('运营');
      expect(screen.getByText('员工账号')).toBeInTheDocument();
    } finally {
      await i18n.changeLanguage('en');
    }
  });
});
