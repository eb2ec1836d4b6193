/**
 * AI clip (docs/api-clip.md "Templates" and "One-touch video"): clip templates
 * (`/clip.merchant_ai_clip_template/*`), AI clip projects (`/clip.merchant_ai_clip/*`) and one-touch
 * video (`/media.merchant_key_slice/*`). Calls behind a form are silent so a 422 shows at its field.
 */
import { api, narrowed, unchecked } from '../client';
import type { components } from '../schema';
import type { ListResult } from '../types';
import type { Project, TextStyle, Variant } from './types';

const TPL = '/clip.merchant_ai_clip_template';
const AI = '/clip.merchant_ai_clip';
const KS = '/media.merchant_key_slice';

export interface TemplateCategory {
  key: string;
  name: string;
  count: number;
}

export interface TemplateSlot {
  label: string;
  tags: string[];
  max_ms: number;
  in_ms: number;
  text: string;
  transition: { kind: string; ms: number } | null;
}

export interface Recipe {
  slots: TemplateSlot[];
  subtitles: { enabled: boolean; style: TextStyle };
  music: { mood: string; volume: number } | null;
  title: { pattern: string; style: TextStyle } | null;
  voice: { voice: string; volume: number; speed: number } | null;
  output_count: number;
}

export interface ClipTemplate {
  id: number;
  category: string;
  category_name: string;
  name: string;
  builtin: boolean;
  mode: 'normal' | 'senior';
  slots: string[];
  recipe: Recipe;
  liked: boolean;
  likes: number;
  uses: number;
  created_at: number;
}

export const fetchTemplateCategories = (): Promise<ListResult<TemplateCategory>> => api.get(`${TPL}/getCategory`);
export const fetchTemplates = (params: { category?: string; liked?: '1'; limit?: number } = {}): Promise<ListResult<ClipTemplate>> =>
  unchecked(api.get(`${TPL}/index`, { limit: 100, ...params }));
export const likeTemplate = (id: number, like: boolean): Promise<{ id: number; liked: boolean }> => api.post(`${TPL}/template_like`, { id, like });
/** "Use template": a project (quick mix or advanced) from the merchant's groups (picked in slot order, or matched by name). */
export const applyTemplate = (id: number, name: string, group_ids?: number[]): Promise<Project> =>
  unchecked(api.post(`${TPL}/template_clip`, group_ids?.length ? { id, name, group_ids } : { id, name }, { silent: true }));
/** "Save as template" from a quick-mix or advanced project. */
export const saveTemplate = (project_id: number, name?: string): Promise<ClipTemplate> =>
  unchecked(api.post(`${TPL}/save`, name ? { project_id, name } : { project_id }, { silent: true }));
export const deleteTemplate = (id: number): Promise<Record<string, never>> => api.post(`${TPL}/delete`, { id });

export type OneTouchState = 'draft' | 'queued' | 'script' | 'voice' | 'match' | 'rendering' | 'done' | 'failed';

export interface OneTouchShot {
  group_id: number;
  group_name: string;
  text: string;
  start_ms: number;
  max_ms: number;
  score: number;
  /** An image project's shot: the images it draws from (group_id 0). */
  images?: number[];
}

/** What a one-touch project is made of: the merchant's video clips or images. */
export type OneTouchKind = 'video' | 'image';

export interface OneTouchJob {
  id: number;
  kind: OneTouchKind;
  name: string;
  topic: string;
  /** The title on the videos as asked (empty: the product the topic names). */
  title: string;
  state: OneTouchState;
  /** A failed job's step. */
  failed_step?: 'script' | 'voice' | 'match' | 'rendering';
  progress: number;
  reason: string;
  count: number;
  /** Target length, seconds. */
  seconds: number;
  group_ids: number[];
  voice: string;
  template_id: number | null;
  script: string[];
  writer: string;
  /** Who wrote the script (`services::writer`); the tag beside it. */
  source?: components['schemas']['WriterSource'];
  voice_media_id: number;
  voice_src: string | null;
  shots: OneTouchShot[];
  project_id: number;
  variants: { success: number; processing: number; failed: number };
  created_at: number;
  updated_at: number;
}

export interface OneTouchReq {
  kind?: OneTouchKind;
  /** Target length, 15–60 s (default 30). */
  seconds?: number;
  topic: string;
  /** The title on the videos (≤ 20 characters; default: the product the topic names). */
  title?: string;
  name?: string;
  group_ids?: number[];
  count?: number;
  voice?: string;
  template_id?: number;
}

export interface OneTouchGroup {
  id: number;
  name: string;
  ready: number;
  clip_ms: number;
  speech: boolean;
}

export const oneTouchUrls = { jobs: `${KS}/my_one_touch_job`, projects: `${AI}/index` } as const;

export const oneTouchNew = (req: OneTouchReq): Promise<OneTouchJob> => unchecked(api.post(`${KS}/oneTouchNew`, req, { silent: true }));
export const fetchOneTouchJobs = (params: Record<string, unknown> = {}): Promise<ListResult<OneTouchJob>> => unchecked(api.get(oneTouchUrls.jobs, { limit: 20, ...params }));
export const fetchOneTouchGroups = (): Promise<ListResult<OneTouchGroup>> => api.get(`${KS}/getResourceGroupList`);
/** A project's videos: getVideoList for a video project, getImgList for an image project. */
export const fetchOneTouchVideos = (id: number, kind: OneTouchKind = 'video'): Promise<ListResult<Variant>> =>
  narrowed(api.get(`${KS}/${kind === 'image' ? 'getImgList' : 'getVideoList'}`, { id }));
/** Video projects (getVideoProject) or image projects (getImgProject), drafts too, newest first. */
export const fetchOneTouchProjects = (kind: OneTouchKind, params: Record<string, unknown> = {}): Promise<ListResult<OneTouchJob>> =>
  unchecked(api.get(`${KS}/${kind === 'image' ? 'getImgProject' : 'getVideoProject'}`, { limit: 20, ...params }));
export const startAiClip = (id: number): Promise<OneTouchJob> => unchecked(api.post(`${AI}/createVideo`, { id }, { silent: true }));
export const copyAiClip = (id: number): Promise<OneTouchJob> => unchecked(api.post(`${AI}/copy`, { id }));
export const deleteAiClip = (id: number): Promise<Record<string, never>> => api.post(`${AI}/delete`, { id });
export const renameAiClip = (id: number, name: string): Promise<OneTouchJob> => unchecked(api.post(`${AI}/changeName`, { id, name }));
