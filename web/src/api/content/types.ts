/**
 * Content (area `content`): the operator's courses, banners and update log, and what merchants read of
 * them. Generated from the server's OpenAPI document (`make api-types` writes ../schema.d.ts); the
 * string unions are narrowings.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

/** The course page a course is listed on: /account, /Popular, /course, /shot_tutorial. */
export type CourseCategory = 'account' | 'popular' | 'course' | 'shot';
/** What opening a course shows: its video, or its rich text. */
export type BodyKind = 'video' | 'rich';

type Narrowed<T> = Omit<T, 'category' | 'body_kind'> & { category: CourseCategory; body_kind: BodyKind };

/** A course with both languages (operator). */
export type Course = Narrowed<Schemas['Course']>;
export type CourseReq = Narrowed<Schemas['CourseReq']>;
/** A published course in the reader's language (course pages). */
export type CourseCard = Narrowed<Schemas['CourseCard']>;
export type CourseDetail = Narrowed<Schemas['CourseDetail']>;

export type Banner = Schemas['Banner'];
export type BannerReq = Schemas['BannerReq'];

/** An update-log entry with both languages (operator). */
export type VersionEntry = Schemas['VersionEntry'];
export type VersionReq = Schemas['VersionReq'];

/** A hot-list board as cached (`/content.hot_list/*_index`) and one of its rows. */
export type HotBoard = Schemas['HotBoard'];
export type HotRow = Schemas['HotRow'];
export type IframeToken = Schemas['IframeToken'];
export type SelfTestCheck = Schemas['SelfTestCheck'];
