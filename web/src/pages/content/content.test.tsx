import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Banner, Course, CourseCard, VersionEntry } from '@/api/content/types';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import CoursesPage from './courses';
import ContentPage from './system';

const course = (id: number, over: Partial<Course> = {}): Course => ({
  id,
  category: 'popular',
  title: `课程 ${id}`,
  title_en: `Course ${id}`,
  summary: '',
  summary_en: '',
  cover: '',
  body_kind: 'video',
  video_url: `https://cdn.test/${id}.mp4`,
  body: '',
  body_en: '',
  published: true,
  sort: 0,
  created_at: Date.UTC(2026, 10, 20),
  updated_at: Date.UTC(2026, 10, 21),
  ...over,
});

const card = (id: number, over: Partial<CourseCard> = {}): CourseCard => ({
  id,
  category: 'popular',
  title: `Course ${id}`,
  summary: `About ${id}`,
  cover: '',
  image: '',
  body_kind: 'video',
  video_url: `https://cdn.test/${id}.mp4`,
  link: `https://cdn.test/${id}.mp4`,
  created_at: Date.UTC(2026, 10, 20),
  ...over,
});

const banner = (id: number): Banner => ({
  id,
  title: `横幅 ${id}`,
  title_en: '',
  image: `/files/${id}.png`,
  link: '',
  published: id === 1,
  sort: id,
  created_at: 0,
  updated_at: 0,
});

/** The OK button of the dialog around a form (`<testId>-form` -> `<testId>-ok`). */
const okOf = (form: HTMLElement) => form.getAttribute('data-testid')!.replace(/-form$/, '-ok');

const version = (id: number): VersionEntry => ({ id, version: `1.${id}.0`, content: `更新 ${id}`, content_en: `Update ${id}`, created_at: 0 });

let calls: { path: string; query: URLSearchParams; body: Record<string, unknown> }[];
let answer: (path: string, body: Record<string, unknown>) => Response | undefined;
let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await import('./i18n');
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  calls = [];
  answer = () => undefined;
  feedback = spyFeedback();
  mockFetch((url, req) => {
    const path = url.pathname.replace('/api', '');
    const body = req.body ? (JSON.parse(String(req.body)) as Record<string, unknown>) : {};
    calls.push({ path, query: url.searchParams, body });
    const custom = answer(path, body);
    if (custom) return custom;
    if (path === '/system/content/course_list') return ok({ rows: [course(1), course(2, { body_kind: 'rich', body: '# Hi', published: false })], total: 2 });
    if (path === '/system/content/banner_list') return ok({ rows: [banner(1), banner(2)], total: 2 });
    if (path === '/system/content/version_list') return ok({ rows: [version(1)], total: 1 });
    if (path === '/system/content/course_add' || path === '/system/content/course_edit') return ok(course(9));
    if (path === '/index/getIndexCourseList') return ok({ rows: [card(1), card(2, { body_kind: 'rich', video_url: '', link: '' })], total: 2 });
    if (path === '/index/getCourseInfo') {
      const id = Number(url.searchParams.get('id'));
      return ok(id === 1 ? { ...card(1), body: '', updated_at: 0 } : { ...card(2, { body_kind: 'rich', video_url: '', link: '' }), body: '# Lighting\n\n- **soft** light\n- [guide](https://x.test/g) and [bad](javascript:alert(1))', updated_at: 0 });
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('/system/content', { timeout: 60_000 }, () => {
  it('lists courses with category, kind and state; adds one; a 422 lands on its field', async () => {
    renderPage(<ContentPage />, { route: '/system/content' });
    expect(await screen.findByTestId('course-title-1')).toHaveTextContent('课程 1');
    const row2 = screen.getByTestId('content-courses-row-2');
    expect(row2).toHaveTextContent('Trending know-how');
    expect(row2).toHaveTextContent('Rich text');
    expect(row2).toHaveTextContent('Draft');

    answer = (path) => (path === '/system/content/course_add' ? json({ code: 422, message: 'video_url must be an http(s) link', data: { field: 'video_url' } }, 422) : undefined);
    fireEvent.click(screen.getByTestId('course-add'));
    const form = await screen.findByTestId('course-form-form');
    fireEvent.change(within(form).getByTestId('course-title'), { target: { value: '拍摄入门' } });
    fireEvent.change(within(form).getByTestId('course-video-url'), { target: { value: '/files/7/original' } });
    fireEvent.click(screen.getByTestId(okOf(form)));
    await waitFor(() => expect(calls.find((c) => c.path === '/system/content/course_add')?.body).toMatchObject({ title: '拍摄入门', video_url: '/files/7/original', body_kind: 'video', category: 'course', published: true }));
    expect(await within(form).findByText('video_url must be an http(s) link')).toBeInTheDocument();

    answer = () => undefined;
    fireEvent.click(screen.getByTestId(okOf(form)));
    await waitFor(() => expect(feedback.success).toHaveBeenCalled());
  });

  it('checks links in the form before sending', async () => {
    renderPage(<ContentPage />, { route: '/system/content' });
    fireEvent.click(await screen.findByTestId('course-add'));
    const form = await screen.findByTestId('course-form-form');
    fireEvent.change(within(form).getByTestId('course-title'), { target: { value: 'x' } });
    fireEvent.change(within(form).getByTestId('course-video-url'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByTestId(okOf(form)));
    expect(await within(form).findByText('An http(s) link or a path starting with /')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/system/content/course_add')).toBe(false);
  });

  it('edits and deletes banners and update-log entries on their tabs', async () => {
    renderPage(<ContentPage />, { route: '/system/content' });
    await screen.findByTestId('course-title-1');
    fireEvent.click(screen.getByRole('tab', { name: 'Banners' }));
    expect(await screen.findByTestId('banner-title-2')).toHaveTextContent('横幅 2');
    fireEvent.click(screen.getByTestId('banner-delete-2'));
    fireEvent.click(await screen.findByTestId('banner-delete-ok-2'));
    await waitFor(() => expect(calls.find((c) => c.path === '/system/content/banner_delete')?.body).toEqual({ id: 2 }));

    fireEvent.click(screen.getByRole('tab', { name: 'Update log' }));
    expect(await screen.findByTestId('version-1')).toHaveTextContent('v1.1.0');
    fireEvent.click(screen.getByTestId('version-edit-1'));
    const form = await screen.findByTestId('version-form-form');
    fireEvent.change(within(form).getByTestId('version-content-en'), { target: { value: 'Faster mixing' } });
    fireEvent.click(screen.getByTestId(okOf(form)));
    await waitFor(() => expect(calls.find((c) => c.path === '/system/content/version_edit')?.body).toEqual({ id: 1, version: '1.1.0', content: '更新 1', content_en: 'Faster mixing' }));
  });
});

describe('course pages', { timeout: 60_000 }, () => {
  it('shows the category of the route as cards; a video course plays in the page', async () => {
    renderPage(<CoursesPage />, { route: '/Popular' });
    expect(await screen.findByTestId('course-card-1')).toHaveTextContent('Course 1');
    expect(screen.getByTestId('courses-page')).toHaveAttribute('data-category', 'popular');
    const list = calls.find((c) => c.path === '/index/getIndexCourseList');
    expect(list?.query.get('category')).toBe('popular');
    fireEvent.click(screen.getByTestId('course-card-1'));
    const video = await screen.findByTestId('course-video');
    expect(video.tagName).toBe('VIDEO');
    expect(video).toHaveAttribute('src', 'https://cdn.test/1.mp4');
  });

  it('renders a rich-text course without running its links', async () => {
    renderPage(<CoursesPage />, { route: '/shot_tutorial' });
    await waitFor(() => expect(calls.find((c) => c.path === '/index/getIndexCourseList')?.query.get('category')).toBe('shot'));
    fireEvent.click(await screen.findByTestId('course-card-2'));
    const body = await screen.findByTestId('course-body');
    expect(within(body).getByRole('heading', { name: 'Lighting' })).toBeInTheDocument();
    expect(within(body).getByText('soft').tagName).toBe('STRONG');
    expect(within(body).getByRole('link', { name: 'guide' })).toHaveAttribute('href', 'https://x.test/g');
    expect(within(body).queryByRole('link', { name: 'bad' })).toBeNull();
  });

  it('says so when a page has no course', async () => {
    answer = (path) => (path === '/index/getIndexCourseList' ? ok({ rows: [], total: 0 }) : undefined);
    renderPage(<CoursesPage />, { route: '/account' });
    expect(await screen.findByTestId('courses-empty')).toHaveTextContent('No courses here yet.');
    // what to do meanwhile, with links to the pages by their menu names
    expect(screen.getByTestId('courses-empty-next')).toHaveTextContent('Meanwhile, authorize your platform accounts in');
    expect(screen.getByTestId('menu-link-account_auth')).toHaveAttribute('href', '/account_auth');
  });
});
