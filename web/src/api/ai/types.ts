/**
 * AI voice (area `ai`, docs/api-ai.md): voices, synthesis tasks, auditions, voice clones. Generated from
 * the server's OpenAPI document (`make api-types` writes ../schema.d.ts); the string unions are
 * narrowings.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type TaskState = Schemas['AiTaskState'];
export type CloneState = Schemas['AiCloneState'];

export type Voice = Schemas['AiVoice'];
export type VoiceList = Schemas['AiVoiceList'];
export type DubReq = Schemas['AiDubReq'];
export type Task = Schemas['AiTask'];
export type Audition = Schemas['AiAudition'];
export type VoiceClone = Schemas['AiVoiceClone'];
export type CloneReq = Schemas['AiCloneReq'];
