/**
 * NFC tap-to-post (docs/api-activities.md): the tags, the video pools they hand out, their titles and
 * their figures. Lists are read by DataTable through `nfcUrls`; every call is a POST.
 */
import { api } from '../client';
import type { ListResult } from '../types';
import type { Pools, TagStats, StatsRange, Tag, TagReq, TagTitle } from './types';

const N = '/nfc.index';

export const nfcUrls = {
  index: `${N}/index`,
  titles: `${N}/titles`,
  /** A tag's titles from a sheet (`tag_id`), and its template. */
  titleImport: `${N}/title_import`,
  titleImportTemplate: `${N}/title_import_template`,
} as const;

/** The area's query keys: a write marks the area stale (`useWrite`), so the tags and titles on screen read again. */
export const nfcKeys = {
  all: ['nfc'] as const,
  pools: ['nfc', 'pools'] as const,
};

type Empty = Record<string, never>;

export const fetchTag = (id: number): Promise<Tag> => api.post(`${N}/info`, { id });
/** Silent: a 422 is shown at its field. */
export const addTag = (req: TagReq): Promise<Tag> => api.post(`${N}/add`, req, { silent: true });
/** Silent: a 422 is shown at its field. */
export const editTag = (id: number, req: TagReq): Promise<Tag> => api.post(`${N}/edit`, { ...req, id }, { silent: true });
/** The public page then says the tag is not in use. */
export const deleteTag = (id: number): Promise<Empty> => api.post(`${N}/delete`, { id });
/** The mixing projects and shot groups a tag can hand videos out of. */
export const fetchPools = (): Promise<Pools> => api.post(`${N}/pools`, {});

export const fetchTitles = (tagId: number, page = 1, limit = 20): Promise<ListResult<TagTitle>> =>
  api.post(nfcUrls.titles, { tag_id: tagId, page, limit });
/** Each 1..50 characters, ≤ 200 at once; blank lines are dropped by the server too. Silent: 422 at the field. */
export const addTitles = (tagId: number, titles: string[]): Promise<{ added: number }> => api.post(`${N}/title_add`, { tag_id: tagId, titles }, { silent: true });
/** Silent: 422 at the field. */
export const editTitle = (id: number, title: string): Promise<TagTitle> => api.post(`${N}/title_edit`, { id, title }, { silent: true });
export const deleteTitles = (ids: number[]): Promise<Empty> => api.post(`${N}/title_delete`, { ids });

/** One tag's daily figures as xlsx / CSV (`ExportButton`). */
export const statsExportUrl = `${N}/export_stats`;
export const fetchStats = (id: number, days: StatsRange): Promise<TagStats> => api.post(`${N}/stats`, { id, days });
