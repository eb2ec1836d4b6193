/**
 * Quick-mix and advanced-mode projects and the finished-video library (docs/api-clip.md). Lists are read
 * by DataTable through `clipUrls`; the pickers of the project form read the material libraries with `limit`.
 * Advanced projects have their own list / save / delete; everything else goes through the quick-mix calls.
 */
import { api, narrowed, unchecked } from '../client';
import type { ListResult } from '../types';
import type { Cancelled, DownloadLink, Imported, PickMedia, Plan, Project, ProjectConfig, ProjectMode, RenderJob, ShotGroup, SystemTrack, Variant } from './types';

const MC = '/clip.merchant_much_clip';
const SC = '/clip.merchant_senior_clip';
const VL = '/clip.merchant_video_library';

/**
 * The area's query keys: a write marks the area stale (`useWrite`), so the projects, the video library,
 * the slicing and intellect lists and the one-touch jobs on screen read again.
 */
export const clipKeys = {
  all: ['clip'] as const,
  slice: ['clip', 'slice'] as const,
  intellect: ['clip', 'intellect'] as const,
  oneTouchJobs: ['clip', 'oneTouchJobs'] as const,
};

export const clipUrls = {
  projects: `${MC}/index`,
  seniorProjects: `${SC}/index`,
  library: `${VL}/index`,
  libraryExport: `${VL}/export`,
  videoIndex: `${VL}/video_index`,
} as const;

type Empty = Record<string, never>;
/** How many rows a picker loads at once. */
const PICK_LIMIT = 1000;

// ---- projects
export const fetchProjects = (params: Record<string, unknown> = {}): Promise<ListResult<Project>> =>
  api.get(clipUrls.projects, { limit: PICK_LIMIT, ...params });
/** Silent: a user without advanced mode simply has none. */
export const fetchSeniorProjects = (params: Record<string, unknown> = {}): Promise<ListResult<Project>> =>
  api.get(clipUrls.seniorProjects, { limit: PICK_LIMIT, ...params }, { silent: true });
export const addProject = (name: string, config: ProjectConfig): Promise<Project> => api.post(`${MC}/add`, { name, config });
export const modifyProject = (id: number, name: string, config: ProjectConfig): Promise<Project> => api.post(`${MC}/modify`, { id, name, config });
export const copyProject = (id: number): Promise<Project> => api.post(`${MC}/add_copy`, { id });
export const setProjectStatus = (id: number, status: 0 | 1): Promise<Empty> => api.post(`${MC}/edit_status`, { id, status });
/** 422 while variants render. */
export const deleteProject = (id: number): Promise<Empty> => api.post(`${MC}/delete`, { id });

// ---- advanced mode: own list, save and delete; plans, renders, copy and status are the quick-mix calls
/** Creates when `id` is undefined, else updates. 422 with data.field on bad input. */
export const saveSeniorProject = (id: number | undefined, name: string, config: ProjectConfig): Promise<Project> =>
  api.post(`${SC}/modify`, id ? { id, name, config } : { name, config });
export const deleteSeniorProject = (id: number): Promise<Empty> => api.post(`${SC}/delete`, { id });

/** Per mode: the list call, save and delete. */
export const projectCalls: Record<
  ProjectMode,
  { list: string; save: (id: number | undefined, name: string, config: ProjectConfig) => Promise<Project>; remove: (id: number) => Promise<Empty> }
> = {
  normal: {
    list: clipUrls.projects,
    save: (id, name, config) => (id ? modifyProject(id, name, config) : addProject(name, config)),
    remove: deleteProject,
  },
  senior: { list: clipUrls.seniorProjects, save: saveSeniorProject, remove: deleteSeniorProject },
};

// ---- what a project is made of
export const fetchShotGroups = (): Promise<ListResult<ShotGroup>> => api.get(`${MC}/get_resource_group`);
export const fetchGroupClips = (groupId: number): Promise<ListResult<PickMedia>> => unchecked(api.get(`${MC}/get_resource`, { group_id: groupId }));
export const fetchMyMusic = (): Promise<ListResult<PickMedia>> => unchecked(api.get('/media.merchant_producing_upfile/music_index', { limit: PICK_LIMIT }));
export const fetchBuiltinMusic = (): Promise<ListResult<SystemTrack>> => api.get('/media.merchant_producing_upfile/system_music_index', { limit: PICK_LIMIT });
export const fetchVoices = (): Promise<ListResult<PickMedia>> => unchecked(api.get('/bpdr.merchant_mediainfo/getVoiceName', { limit: PICK_LIMIT }));
export const fetchFonts = (): Promise<ListResult<PickMedia>> => unchecked(api.get('/media.merchant_font_style/getAll', { limit: PICK_LIMIT }));

// ---- plans and renders. Silent: the dialogs show the server's message (422 over capacity, points …).
export const previewPlan = (id: number, count?: number): Promise<Plan> =>
  api.post(`${MC}/preview_video`, count ? { id, count } : { id }, { silent: true });
/** Charges `points`; answers the plan with `variant_ids`. */
export const generateVariants = (id: number, count?: number): Promise<Plan> =>
  api.post(`${MC}/add_video`, count ? { id, count } : { id }, { silent: true });
/** More unique variants of the same project (the library's "continue adding"). */
export const continueAdding = (id: number, count: number): Promise<Plan> => api.post(`${VL}/continue_add_video`, { id, count }, { silent: true });
/** Every unique variant the project still allows (at most 200 per call); charges 2 points each. */
export const renderAllRemaining = (id: number): Promise<Plan> => api.post(`${VL}/job_video_add_all`, { id }, { silent: true });

// ---- the finished-video library
export const fetchVariants = (params: Record<string, unknown>): Promise<ListResult<Variant>> => narrowed(api.get(clipUrls.library, params));
/** 422 while one of them renders. */
export const deleteVariants = (ids: number[]): Promise<Empty> => api.post(`${VL}/video_delete`, ids.length === 1 ? { id: ids[0] } : { ids });
/** Stops renders; their points are refunded. */
export const cancelVariants = (ids: number[]): Promise<Cancelled> => api.post(`${VL}/video_cancel`, ids.length === 1 ? { id: ids[0] } : { ids });
/** A signed link (an hour) to download finished videos: one video's file, or a zip of several (all or none: 404 names another's). */
export const downloadVideos = (ids: number[]): Promise<DownloadLink> => api.post(`${VL}/download`, { ids });
export const markUsed = (id: number, used: boolean): Promise<Variant> => api.post(`${VL}/video_use`, { id, used });
/** Imports the caller's own finished videos (ready video materials); 422 names one already in the library or not processed. */
export const importVideos = (ids: number[]): Promise<Imported> => api.post(`${VL}/add`, { ids }, { silent: true });
/** The caller's processed videos (the multi-shot video library, every group), for the import picker. */
export const fetchReadyVideos = (params: Record<string, unknown> = {}): Promise<ListResult<PickMedia>> =>
  unchecked(api.get('/media.merchant_much_resource/video_resource_detail', {
    limit: PICK_LIMIT,
    filterObj: { kind: 'video|=', state: 'ready|=' },
    ...params,
  }));
export const fetchRenderJob = (id: number): Promise<RenderJob> => api.get(`${VL}/job_video`, { id });
