/**
 * Content calls: the operator's CRUD under /system/content/* (lists read by DataTable through
 * `contentUrls`) and the course pages' reads. Writes are silent so a 422 is shown at its form field.
 */
import { api, narrowed } from '../client';
import type { ListResult } from '../types';
import type { Banner, BannerReq, Course, CourseCard, CourseCategory, CourseDetail, CourseReq, HotBoard, IframeToken, VersionEntry, VersionReq } from './types';

const S = '/system/content';

/**
 * The area's query keys: a write marks the area stale (`useWrite`), so the lists, the course pages and
 * the home page's banners and courses on screen read again.
 */
export const contentKeys = {
  all: ['content'] as const,
  home: ['content', 'home'] as const,
};

export const contentUrls = {
  courses: `${S}/course_list`,
  banners: `${S}/banner_list`,
  versions: `${S}/version_list`,
  published: '/index/getIndexCourseList',
  /** Multipart: `kind` (video | image), then `file`. */
  upload: `${S}/upload`,
  selfTest: '/system/selftest/index',
} as const;

type Empty = Record<string, never>;

export const addCourse = (req: CourseReq): Promise<Course> => narrowed(api.post(`${S}/course_add`, req, { silent: true }));
export const editCourse = (id: number, req: CourseReq): Promise<Course> => narrowed(api.post(`${S}/course_edit`, { ...req, id }, { silent: true }));
export const deleteCourse = (id: number): Promise<Empty> => api.post(`${S}/course_delete`, { id });

export const addBanner = (req: BannerReq): Promise<Banner> => api.post(`${S}/banner_add`, req, { silent: true });
export const editBanner = (id: number, req: BannerReq): Promise<Banner> => api.post(`${S}/banner_edit`, { ...req, id }, { silent: true });
export const deleteBanner = (id: number): Promise<Empty> => api.post(`${S}/banner_delete`, { id });

export const addVersion = (req: VersionReq): Promise<VersionEntry> => api.post(`${S}/version_add`, req, { silent: true });
export const editVersion = (id: number, req: VersionReq): Promise<VersionEntry> => api.post(`${S}/version_edit`, { ...req, id }, { silent: true });
export const deleteVersion = (id: number): Promise<Empty> => api.post(`${S}/version_delete`, { id });

/** Published courses of one page (every page's without a category), in the caller's language. */
export const fetchCourses = (category: CourseCategory | undefined, page = 1, limit = 12): Promise<ListResult<CourseCard>> =>
  narrowed(api.get(contentUrls.published, category ? { category, page, limit } : { page, limit }));
/** One published course to open (404 once unpublished). */
export const fetchCourse = (id: number): Promise<CourseDetail> => narrowed(api.get('/index/getCourseInfo', { id }));

/** The hot-list pages and their reads (the page's first board; the list page picks others with `board`). */
export type HotPage = 'music' | 'keywords' | 'video' | 'topic' | 'life' | 'doyen';
export const hotListUrl = (page: HotPage) => `/content.hot_list/${page}_index` as const;
export const fetchHotBoard = (page: HotPage): Promise<HotBoard> => narrowed(api.get(hotListUrl(page)));
/** Operator: every board read again now. */
export const refreshHotLists = (): Promise<{ queued: number }> => api.post(`${S}/hot_refresh`, {});

/** A token opening the read-only video-library page (/visualIframe) for two hours. */
export const fetchIframeToken = (): Promise<IframeToken> => api.post('/index/getVideoLibraryIframeToken', {});
