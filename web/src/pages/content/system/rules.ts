/** The content forms' shapes and checks (the server checks again and names the field on a 422). */
import type { Rule } from 'antd/es/form';
import { safeHref } from '../richText';
import type { Banner, BannerReq, Course, CourseCategory, CourseReq, VersionEntry, VersionReq } from '@/api/content/types';

export const CATEGORIES: CourseCategory[] = ['account', 'popular', 'course', 'shot'];

/** http(s) links or this site's paths (`/files/…`); empty passes (required is its own rule). */
export function isLink(v: string): boolean {
  return !v.trim() || safeHref(v) !== null;
}

export const linkRule = (message: string): Rule => ({
  validator: (_, v: string | undefined) => (isLink(v ?? '') ? Promise.resolve() : Promise.reject(new Error(message))),
});

export const emptyCourse = (): CourseReq => ({
  category: 'course',
  title: '',
  title_en: '',
  summary: '',
  summary_en: '',
  cover: '',
  body_kind: 'video',
  video_url: '',
  body: '',
  body_en: '',
  published: true,
  sort: 0,
});

export const courseToReq = (c: Course): CourseReq => ({
  category: c.category,
  title: c.title,
  title_en: c.title_en,
  summary: c.summary,
  summary_en: c.summary_en,
  cover: c.cover,
  body_kind: c.body_kind,
  video_url: c.video_url,
  body: c.body,
  body_en: c.body_en,
  published: c.published,
  sort: c.sort,
});

export const emptyBanner = (): BannerReq => ({ title: '', title_en: '', image: '', link: '', published: true, sort: 0 });

export const bannerToReq = (b: Banner): BannerReq => ({
  title: b.title,
  title_en: b.title_en,
  image: b.image,
  link: b.link,
  published: b.published,
  sort: b.sort,
});

export const emptyVersion = (): VersionReq => ({ version: '', content: '', content_en: '' });

export const versionToReq = (v: VersionEntry): VersionReq => ({ version: v.version, content: v.content, content_en: v.content_en });
