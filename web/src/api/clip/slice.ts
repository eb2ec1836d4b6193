/**
 * Batch slice (docs/api-clip.md "Batch slice"): slicing projects (`/clip.merchant_visual_editing/*`)
 * and their source videos (`/clip.merchant_project/*`). The project list is read by DataTable through
 * `sliceUrls.projects`; the pickers read the multi-shot video library.
 */
import { api, narrowed, unchecked } from '../client';
import type { ListResult, Millis } from '../types';

const VE = '/clip.merchant_visual_editing';
const MP = '/clip.merchant_project';

export const sliceUrls = {
  projects: `${VE}/index`,
  library: `${VE}/video_library`,
} as const;

export type SliceMode = 'fixed' | 'subtitle';
export type SourceState = 'pending' | 'processing' | 'success' | 'failed';

export interface SliceSource {
  /** The source row (start / retry / cancel / remove act on it). */
  id: number;
  project_id: number;
  /** The video material being cut. */
  resource_id: number;
  name: string;
  state: SourceState;
  /** 0–100 */
  progress: number;
  /** ffmpeg's words, 'cancelled', or the deleted video's name. */
  error: string;
  /** Slices made from it that still exist. */
  slices: number;
  created_at: Millis;
  updated_at: Millis;
}

export interface SliceProject {
  id: number;
  name: string;
  mode: SliceMode;
  /** fixed: slice length in seconds (1–60); 0 in subtitle mode. */
  seconds: number;
  /** subtitle: merge lines until at least this long; never longer than max_seconds. */
  min_seconds: number;
  max_seconds: number;
  group_id: number;
  /** null when the group was deleted. */
  group_name: string | null;
  state: SourceState;
  sources: SliceSource[];
  slices: number;
  created_at: Millis;
  updated_at: Millis;
}

export interface SliceSettings {
  name: string;
  mode: SliceMode;
  seconds?: number | null;
  min_seconds?: number | null;
  max_seconds?: number | null;
  group_id: number;
}

export interface SliceVideo {
  /** The slice's material id. */
  id: number;
  name: string;
  duration_ms: number;
  group_id: number;
  state: string;
  poster: string | null;
  src: string;
  mezzanine: string | null;
  source_id: number;
  source_name: string | null;
  /** Seconds in the source. */
  start: number;
  end: number;
  start_ms: number;
  end_ms: number;
}

export interface PickVideo {
  id: number;
  name: string;
  kind: string;
  state: string;
  duration_ms: number;
  group_id: number;
  poster: string | null;
  asr_state: string;
}

export interface VideoGroup {
  id: number;
  name: string;
  kind: string;
  count: number;
  ready: number;
}

type Empty = Record<string, never>;
const PICK_LIMIT = 1000;

// ---- projects. Create / modify are silent: the drawer shows the server's 422 on its field.
export const fetchSliceProjects = (params: Record<string, unknown> = {}): Promise<ListResult<SliceProject>> =>
  narrowed(api.get(sliceUrls.projects, { limit: PICK_LIMIT, ...params }));
export const createSliceProject = (body: SliceSettings & { resource_ids: number[] }): Promise<SliceProject> =>
  narrowed(api.post(`${VE}/create_project`, body, { silent: true }));
export const modifySliceProject = (projectId: number, body: SliceSettings): Promise<SliceProject> =>
  narrowed(api.post(`${MP}/modify`, { project_id: projectId, ...body }, { silent: true }));
/** 422 while a source is being sliced; the slices stay in their group. */
export const deleteSliceProject = (id: number): Promise<Empty> => api.post(`${VE}/delete`, { id });
/** Queues every pending or failed source. */
export const startSliceProject = (id: number): Promise<{ queued: number; project: SliceProject }> =>
  narrowed(api.post(`${VE}/job_export`, { id }));

// ---- sources
export const fetchSliceSources = (projectId: number): Promise<ListResult<SliceSource>> =>
  narrowed(api.get(`${MP}/index`, { project_id: projectId }));
export const addSliceSources = (projectId: number, resourceIds: number[]): Promise<{ added: number; project: SliceProject }> =>
  narrowed(api.post(`${MP}/add_video`, { project_id: projectId, resource_ids: resourceIds }));
/** Start or retry one source (slices already made are skipped). */
export const startSliceSource = (id: number): Promise<SliceSource> => narrowed(api.post(`${MP}/job_video`, { id }));
/** Cancel one source being sliced. */
export const cancelSliceSource = (id: number): Promise<SliceSource> => narrowed(api.post(`${MP}/job_delete`, { id }));
export const removeSliceSource = (id: number): Promise<Empty> => api.post(`${MP}/delete`, { id });

// ---- slices
export const fetchSlices = (projectId: number, params: Record<string, unknown> = {}): Promise<ListResult<SliceVideo>> =>
  unchecked(api.get(sliceUrls.library, { project_id: projectId, limit: PICK_LIMIT, ...params }));
export const deleteSlices = (ids: number[]): Promise<{ deleted: number }> => api.post(`${VE}/video_delete`, { ids });
/** Moves every slice of the project into that group. */
export const moveSlicesToGroup = (projectId: number, groupId: number): Promise<{ moved: number; group_id: number; group_name: string }> =>
  api.post(`${VE}/job_video_add_all`, { project_id: projectId, group_id: groupId });

// ---- pickers (the multi-shot video library)
export const fetchVideoGroups = (): Promise<ListResult<VideoGroup>> =>
  api.get('/media.merchant_much_resource/video_resource_group_index', { limit: PICK_LIMIT });
export const fetchPickVideos = (params: Record<string, unknown> = {}): Promise<ListResult<PickVideo>> =>
  unchecked(api.get('/media.merchant_much_resource/video_resource_detail', {
    limit: PICK_LIMIT,
    filterObj: { kind: 'video|=', state: 'ready|=' },
    ...params,
  }));
