/**
 * AI smart editing (docs/api-clip.md "AI smart editing"): the Administrator's
 * `/system/intellect/*`. Every call names the merchant whose long video is cut; the shorts land in one
 * of that merchant's video groups. `add` is silent so a 422 shows at its field.
 */
import { api, narrowed, unchecked } from '../client';
import type { ListResult, Millis } from '../types';

const API = '/system/intellect';

export interface IntellectVideo {
  id: number;
  name: string;
  duration_ms: number;
  group_id: number;
  /** none | processing | success | failed: `success` means the run needs no recognition (free). */
  asr_state: string;
  has_audio: boolean;
  /** What recognizing it costs (0 when recognized or silent). */
  points: number;
  poster: string | null;
  src: string;
}

export interface IntellectSources {
  videos: IntellectVideo[];
  groups: { id: number; name: string }[];
}

export interface IntellectShort {
  id: number;
  name: string;
  duration_ms: number;
  group_id: number;
  state: string;
  src: string;
  poster: string | null;
}

export type IntellectEdge = 'video' | 'scene' | 'sentence' | 'scene_and_sentence';

export interface IntellectSegment {
  start_ms: number;
  end_ms: number;
  /** 0–100 */
  score: number;
  speech_ms: number;
  start_on: IntellectEdge;
  end_on: IntellectEdge;
  transcript: string;
  short: IntellectShort | null;
}

export type IntellectState = 'running' | 'done' | 'failed';
export type IntellectStep = 'analyse' | 'pick' | 'cut';

export interface IntellectRun {
  id: number;
  merchant_id: number;
  merchant_name: string | null;
  resource_id: number;
  name: string;
  source: { id: number; duration_ms: number; src: string; poster: string | null } | null;
  group_id: number;
  group_name: string | null;
  min_seconds: number;
  max_seconds: number;
  count: number;
  lang: string;
  state: IntellectState;
  step: IntellectStep;
  progress: number;
  reason: string;
  points: number;
  segments: IntellectSegment[];
  created_by: string;
  created_at: Millis;
  updated_at: Millis;
}

export interface IntellectReq {
  merchant_id: number;
  resource_id: number;
  group_id: number;
  min_seconds: number;
  max_seconds: number;
  count: number;
  lang: 'zh' | 'en';
}

export const fetchIntellectSources = (merchant_id: number): Promise<IntellectSources> => narrowed(api.get(`${API}/sources`, { merchant_id }));
export const fetchIntellectRuns = (params: Record<string, unknown> = {}): Promise<ListResult<IntellectRun>> =>
  unchecked(api.get(`${API}/index`, { limit: 20, ...params }));
export const addIntellectRun = (req: IntellectReq): Promise<IntellectRun> => unchecked(api.post(`${API}/add`, req, { silent: true }));
export const retryIntellectRun = (id: number): Promise<IntellectRun> => unchecked(api.post(`${API}/retry`, { id }));
export const deleteIntellectRun = (id: number): Promise<Record<string, never>> => api.post(`${API}/delete`, { id });
export const fetchMerchantOptions = (): Promise<ListResult<{ id: number; name: string; username: string }>> =>
  api.get('/system/merchant/index', { limit: 200 });
