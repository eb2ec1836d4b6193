import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { clearSession, saveUser } from '@/store/session';
import { mockFetch, ok, renderPage } from '@/test/utils';
import { merchantUser, staffUser } from '@/test/users';
import { installFakeXhr, uploaded } from '@/test/xhr';
import CodePage, { signInUrl } from './code';
import HomePage from './home';
import SelfTestPage from './selfTest';
import ContentPage from './system';
import VisualIframePage from './visualIframe';

let calls: { path: string; query: URLSearchParams; body: unknown }[];

beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  calls = [];
  mockFetch((url, req) => {
    const path = url.pathname.replace('/api', '');
    calls.push({ path, query: url.searchParams, body: req.body });
    if (path === '/index/banner') return ok({ rows: [{ id: 1, title: 'Spring sale', image: '/b.png', link: '' }], total: 1 });
    if (path === '/index/getIndexCourseList')
      return ok({ rows: [{ id: 3, category: 'shot', title: 'Lighting basics', summary: '', cover: '', image: '', body_kind: 'video', video_url: '', link: '', created_at: 0 }], total: 1 });
    if (path === '/content.hot_list/keywords_index')
      return ok({ board: 'keywords', boards: ['keywords'], platform: 'dy', day: '2026-11-26', fetched_at: 1, last_error: '', rows: [{ rank: 1, title: '夏日第一杯奶茶', label: '热', heat: 9 }] });
    if (path === '/index/getVideoLibraryIframeToken') return ok({ token: '1.9.ab', url: '/embed/video_library?token=1.9.ab', expires_at: Date.now() + 7_200_000 });
    if (path === '/system/selftest/index')
      return ok({ rows: [{ name: 'database', ok: true, detail: 'Sqlite', ms: 1 }, { name: 'ffmpeg', ok: false, detail: 'not found', ms: 2 }], total: 2 });
    if (path === '/system/content/upload') return ok({ id: 4, kind: 'video', src: '/files/4/course?e=1&s=x', fileName: 'lesson.mp4', size: 3 });
    if (path === '/system/content/course_list') return ok({ rows: [], total: 0 });
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  clearSession();
});

describe('common routes', { timeout: 60_000 }, () => {
  it('/home shows banners, the shortcuts the user may open, hot searches and the newest courses', async () => {
    saveUser(merchantUser);
    renderPage(<HomePage />, { route: '/home' });
    expect(await screen.findByText('Lighting basics')).toBeInTheDocument();
    expect(screen.getByTestId('home-shortcut-send_management')).toBeInTheDocument();
    expect(await screen.findByText('夏日第一杯奶茶')).toBeInTheDocument();
    expect(screen.getByText('Hello, Demo')).toBeInTheDocument();
    // every page's courses, not one category
    expect(calls.find((c) => c.path === '/index/getIndexCourseList')!.query.has('category')).toBe(false);
  });

  it('/home leaves out what a staff member may not open', async () => {
    saveUser(staffUser);
    renderPage(<HomePage />, { route: '/home' });
    expect(await screen.findByTestId('home-shortcut-send_management')).toBeInTheDocument();
    expect(screen.queryByTestId('home-shortcut-video')).toBeNull();
    expect(screen.queryByTestId('home-hot')).toBeNull();
    expect(calls.some((c) => c.path === '/content.hot_list/keywords_index')).toBe(false);
  });

  it('/code shows a sign-in code for each login type', async () => {
    renderPage(<CodePage />, { route: '/code' });
    for (const type of [1, 2, 3]) expect(await screen.findByTestId(`code-qr-${type}`)).toBeInTheDocument();
    expect(screen.getByTestId('code-link-3')).toHaveTextContent(signInUrl(3));
    expect(signInUrl(2, 'https://x.test')).toBe('https://x.test/login?type=2');
  });

  it('/visualIframe frames the video-library page with its token in the console language', async () => {
    renderPage(<VisualIframePage />, { route: '/visualIframe' });
    const frame = await screen.findByTestId('visual-iframe');
    expect(frame.getAttribute('src')).toBe('/embed/video_library?token=1.9.ab&lang=en');
  });

  it('/test lists each check with its result', async () => {
    renderPage(<SelfTestPage />, { route: '/test' });
    expect(await screen.findByTestId('selftest-database')).toHaveTextContent('OK');
    expect(screen.getByTestId('selftest-ffmpeg')).toHaveTextContent('Failed');
    expect(screen.getByText('not found')).toBeInTheDocument();
  });

  it('the course form uploads a video and fills in its link', async () => {
    renderPage(<ContentPage />, { route: '/system/content' });
    fireEvent.click(await screen.findByTestId('course-add'));
    const form = await screen.findByTestId('course-form-form');
    const Xhr = installFakeXhr();
    const input = within(form).getByTestId('course-video-upload-input') as HTMLInputElement;
    fireEvent.change(input, { target: { files: [new File(['abc'], 'lesson.mp4', { type: 'video/mp4' })] } });
    await waitFor(() => expect(Xhr.all).toHaveLength(1));
    expect(Xhr.all[0].url).toContain('/system/content/upload');
    act(() => Xhr.all[0].respond(uploaded('/files/4/course?e=1&s=x', 'lesson.mp4')));
    await waitFor(() => expect(within(form).getByTestId('course-video-url')).toHaveValue('/files/4/course?e=1&s=x'));
    const sent = Xhr.all[0].body!;
    expect(sent.get('kind')).toBe('video');
  });
});
