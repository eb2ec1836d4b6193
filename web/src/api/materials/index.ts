/** Material library calls (docs/api-materials.md). Lists are read by DataTable through `materialUrls`. */
import { api, narrowed, unchecked } from '../client';
import type { ListResult } from '../types';
import type { AsrLine, AsrLineView, AsrStarted, AsrTimeline, ClassifyNode, FileType, FileTypeKind, FileTypeNode, MediaFile, ShotGroup } from './types';

const MR = '/media.merchant_much_resource';
const PU = '/media.merchant_producing_upfile';
const FT = '/bpdr.merchant_file_type';

export const materialUrls = {
  // lists (list engine)
  clips: `${MR}/video_resource_detail`,
  clipsExport: `${MR}/export`,
  groups: `${MR}/video_resource_group_index`,
  voices: '/bpdr.merchant_mediainfo/getVoiceName',
  voicesExport: '/bpdr.merchant_mediainfo/voice_export',
  music: `${PU}/music_index`,
  musicExport: `${PU}/music_export`,
  systemMusic: `${PU}/system_music_index`,
  images: `${PU}/image_index`,
  imagesExport: `${PU}/image_export`,
  fonts: '/media.merchant_font_style/index',
  fontsExport: '/media.merchant_font_style/export',
  operatorMusic: '/system/music/index',
  // multipart uploads (text fields before `file`)
  uploadClip: `${MR}/add_resource`,
  uploadVoice: '/bpdr.merchant_mediainfo/upload',
  uploadFile: `${PU}/add`,
  uploadFont: '/media.merchant_font_style/add',
  uploadOperatorMusic: '/system/music/add',
} as const;

/**
 * The area's query keys: a write marks the area stale (`useWrite`), so the tables and the category
 * trees on screen read again.
 */
export const materialsKeys = {
  all: ['materials'] as const,
  /**
   * A file's subtitle timeline, outside `all`: the editor keeps the lines its save answered, and a
   * recognition started marks it stale by name.
   */
  timeline: (resourceId: number | undefined) => ['asrTimeline', resourceId] as const,
};

type Empty = Record<string, never>;

// ---- shot groups and the classify tree (/video left pane)
export const fetchGroups = (classifyId?: number): Promise<ListResult<ShotGroup>> =>
  narrowed(api.get(materialUrls.groups, {
    limit: 1000,
    ...(classifyId !== undefined ? { filterObj: { classify_id: `${classifyId}|=` } } : {}),
  }));
export const addGroup = (name: string, classifyId = 0): Promise<ShotGroup> => api.post(`${MR}/resource_group_add`, { name, classify_id: classifyId });
export const renameGroup = (id: number, name: string): Promise<Empty> => api.post(`${MR}/edit_resource_group_name`, { id, name });
/** Without `confirm` a group that still holds materials answers 422 with the question to ask. */
export const deleteGroup = (id: number, confirm = false): Promise<Empty> =>
  api.post(`${MR}/resource_group_delete`, confirm ? { id, confirm: true } : { id }, { silent: !confirm });

export const fetchClassifyTree = (): Promise<ClassifyNode[]> => api.get(`${MR}/resource_classify_index`);
export const addClassify = (name: string, parentId = 0): Promise<{ id: number }> => api.post(`${MR}/resource_add_classify`, { name, parent_id: parentId });
export const renameClassify = (id: number, name: string): Promise<Empty> => api.post(`${MR}/edit_classify_name`, { id, name });
export const deleteClassify = (id: number): Promise<Empty> => api.post(`${MR}/resource_delete_classify`, { id });

// ---- materials
/** The voice recordings a clone can be trained from (silent: the panel shows an empty list). */
export const fetchVoiceFiles = (): Promise<ListResult<MediaFile>> =>
  unchecked(api.get(materialUrls.voices, { limit: 200 }, { silent: true }));
export const fetchMaterial = (id: number): Promise<MediaFile> => narrowed(api.get(`${MR}/resource_detail`, { id }));
/** Renames a file of any library. */
export const renameMaterial = (id: number, name: string): Promise<Empty> => api.post('/ajax/edit_upfile', { id, name });
export const deleteClips = (ids: number[]): Promise<Empty> => api.post(`${MR}/resource_delete_media`, { ids });
export const deleteClip = (id: number): Promise<Empty> => api.post(`${MR}/resource_delete`, { id });
/** Voice-over, music and image files. */
export const deleteFiles = (ids: number[]): Promise<Empty> => api.post(`${PU}/delete`, { ids });

// ---- fonts
export const renameFont = (id: number, name: string): Promise<Empty> => api.post('/media.merchant_font_style/edit', { id, name });
export const deleteFont = (id: number): Promise<Empty> => api.post('/media.merchant_font_style/delete', { id });

// ---- categories (file types)
export const fetchFileTypes = (kind: FileTypeKind): Promise<ListResult<FileType>> => narrowed(api.get(`${FT}/${kind}_index`));
export const fetchImageTree = (): Promise<FileTypeNode[]> => api.get(`${FT}/image_tree`);
export const addFileType = (kind: FileTypeKind, name: string, parentId = 0): Promise<FileType> =>
  narrowed(api.post(`${FT}/add`, { kind, name, parent_id: parentId }));
export const renameFileType = (id: number, name: string): Promise<Empty> => api.post(`${FT}/edit`, { id, name });
export const deleteFileType = (id: number): Promise<Empty> => api.post(`${FT}/delete`, { id });

// ---- music and image libraries
/** Copies a built-in track into the caller's music library. */
export const copySystemMusic = (systemMusicId: number, fileTypeId?: number): Promise<MediaFile> =>
  narrowed(api.post('/clip.merchant_music_library/save', { system_music_id: systemMusicId, ...(fileTypeId ? { file_type_id: fileTypeId } : {}) }));
/** Sets the category of one of the caller's music files. */
export const setMusicType = (id: number, fileTypeId: number): Promise<MediaFile> => narrowed(api.post('/clip.merchant_music_library/save', { id, file_type_id: fileTypeId }));
export const setImageType = (id: number, fileTypeId: number): Promise<MediaFile> => narrowed(api.post('/clip.merchant_image_library/save', { id, file_type_id: fileTypeId }));

// ---- the operator's built-in music
export const deleteOperatorMusic = (id: number): Promise<Empty> => api.post('/system/music/delete', { id });

// ---- subtitles
export const startRecognition = (resourceId: number, lang: 'zh' | 'en'): Promise<AsrStarted> => narrowed(api.post(`${MR}/asr_add`, { resource_id: resourceId, lang }));
export const fetchTimeline = (resourceId: number): Promise<AsrTimeline> => api.get(`${MR}/get_asr_timeline`, { resource_id: resourceId });
/** Replaces every line; 422 'Invalid subtitle timing: …' names the first bad one (silent: the editor shows it on the line). */
export const saveTimeline = (resourceId: number, lines: AsrLine[]): Promise<AsrLineView[]> =>
  api.post(
    `${MR}/save_asr_times`,
    { resource_id: resourceId, lines: lines.map(({ start, end, content }) => ({ start, end, content })) },
    { silent: true },
  );
