/**
 * AI voice calls (docs/api-ai.md). The task list is read by DataTable through `aiUrls.tasks`. Calls
 * behind a form are silent so a 422 is shown at its field.
 */
import type { MediaFile } from '../materials/types';
import { api, narrowed } from '../client';
import type { Audition, CloneReq, DubReq, Task, VoiceClone, VoiceList } from './types';

const D = '/ai.MerchantDub';

/** The area's query keys: a write marks what it changed stale (`useWrite`), so the reads on screen read again. */
export const aiKeys = {
  all: ['ai'] as const,
  voices: ['ai', 'voices'] as const,
  tasks: ['ai', 'tasks'] as const,
  clones: ['ai', 'clones'] as const,
  samples: ['ai', 'samples'] as const,
};

export const aiUrls = {
  tasks: `${D}/taskList`,
} as const;

export const fetchVoices = (): Promise<VoiceList> => narrowed(api.get(`${D}/get_voice_list`));
export const likeVoice = (voice: string, like: boolean): Promise<{ voice: string; liked: boolean }> => api.post(`${D}/voice_likes`, { voice, like });
export const putTask = (req: DubReq): Promise<Task> => api.post(`${D}/putNlsTask`, req, { silent: true });
export const audition = (req: DubReq): Promise<Audition> => api.post(`${D}/nlsAudition`, req, { silent: true });
export const deleteTask = (id: number): Promise<Record<string, never>> => api.post(`${D}/deleteTask`, { id });
export const importTask = (id: number, group_id = 0): Promise<MediaFile> => narrowed(api.post(`${D}/importingBroadcast`, { id, group_id }));

export const fetchClones = (): Promise<{ rows: VoiceClone[]; total: number }> => narrowed(api.get('/doubao.db_audio/cloning', undefined, { silent: true }));
export const uploadClone = (req: CloneReq): Promise<VoiceClone> => api.post('/doubao.db_audio/upload', req, { silent: true });
