/**
 * The copy precheck (`POST /index/copyCheck`, `api::compliance`): the findings of one text against the
 * advertising law, the platforms' rules and the merchant's banned words. Shared by every form that
 * takes a merchant's words (release tasks, auto-replies, NFC titles, scripts, voice-overs).
 */
import { api } from './client';
import type { components } from './schema';

export type CopyCheck = components['schemas']['CopyCheck'];
export type CopyFinding = components['schemas']['CopyFinding'];
export type CopyPlatform = components['schemas']['Platform'];

/** Silent: a failing check shows no error toast while the merchant types (the server checks again). */
export function checkCopy(text: string, platforms: CopyPlatform[] = []): Promise<CopyCheck> {
  return api.post('/index/copyCheck', { text, platforms }, { silent: true });
}
