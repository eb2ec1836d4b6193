/**
 * AI voice calls (docs/api-ai.md). The task list is read by DataTable through `aiUrls.tasks`. Calls
 * behind a form are silent so a 422 is shown at its field.
 */
import type { MediaFile } from '../materials/types';
import { http } from '../request';
import type { Audition, CloneReq, DubReq, Task, VoiceClone, VoiceList } from './types';

const D = '/ai.MerchantDub';

export const aiUrls = {
  tasks: `${D}/taskList`,
} as const;

export const fetchVoices = () => http.get<VoiceList>(`${D}/get_voice_list`);
export const likeVoice = (voice: string, like: boolean) => http.post<{ voice: string; liked: boolean }>(`${D}/voice_likes`, { voice, like });
export const putTask = (req: DubReq) => http.post<Task>(`${D}/putNlsTask`, req, { silent: true });
export const audition = (req: DubReq) => http.post<Audition>(`${D}/nlsAudition`, req, { silent: true });
export const deleteTask = (id: number) => http.post<Record<string, never>>(`${D}/deleteTask`, { id });
export const importTask = (id: number, group_id = 0) => http.post<MediaFile>(`${D}/importingBroadcast`, { id, group_id });

export const fetchClones = () => http.get<{ rows: VoiceClone[]; total: number }>('/doubao.db_audio/cloning', undefined, { silent: true });
export const uploadClone = (req: CloneReq) => http.post<VoiceClone>('/doubao.db_audio/upload', req, { silent: true });
