/** Quick mix and the finished-video library (docs/api-clip.md). */
import type { Millis } from '../types';

export type TextPosition = 'top' | 'middle' | 'bottom';

export interface TextStyle {
  /** A font of the caller's font library; null = the built-in CJK font. */
  font_id: number | null;
  /** 16–160 px on the 1080x1920 frame. */
  size: number;
  /** #RRGGBB */
  color: string;
  position: TextPosition;
}

export type TransitionKind =
  | 'fade'
  | 'dissolve'
  | 'wipeleft'
  | 'wiperight'
  | 'wipeup'
  | 'wipedown'
  | 'slideleft'
  | 'slideright'
  | 'slideup'
  | 'slidedown'
  | 'circleopen'
  | 'circleclose';

/** Advanced mode: the transition into the next shot (ffmpeg xfade). */
export interface Transition {
  kind: TransitionKind;
  /** 200–2000, default 500. */
  ms: number;
}

export interface GroupRule {
  group_id: number;
  /** Longest part of each clip used, ms (0 = the whole clip; cuts fall on whole seconds). Advanced mode: the length from `in_ms`. */
  max_ms?: number;
  /** Advanced mode: where each clip of this shot starts, ms (≥ 0, default 0). */
  in_ms?: number;
  /** Advanced mode: the caption shown while this shot plays (≤ 30 characters; blank = none). */
  text?: string;
  /** Advanced mode: the transition into the next shot; null = a hard cut. Not on the last shot. */
  transition?: Transition | null;
}

export interface AudioRef {
  media_id?: number | null;
  /** Up to 3 library files (SPEC §5 "Up to 3 files in one selection"); the variants take them in turn. */
  media_ids?: number[];
  /** Music only: a built-in track. */
  system_music_id?: number | null;
  /** 0–100 */
  volume: number;
}

export interface ProjectConfig {
  groups: GroupRule[];
  music?: AudioRef | null;
  voice?: AudioRef | null;
  subtitles: { enabled: boolean; style: TextStyle };
  title?: { text: string; style: TextStyle } | null;
  cover_ms: number;
  output_count: number;
  /** Advanced mode: the style of the shots' captions (default {font_id: null, size: 64, color: '#FFFFFF', position: 'middle'}). */
  shot_style?: TextStyle | null;
}

export type ProjectMode = 'normal' | 'senior';

export interface VariantCounts {
  success: number;
  processing: number;
  failed: number;
}

export interface Project {
  id: number;
  name: string;
  mode: string;
  /** 1 enabled, 0 disabled */
  status: number;
  config: ProjectConfig;
  created_at: Millis;
  updated_at: Millis;
  /** Unique variants still possible. */
  capacity: number;
  /** Ready clips in its groups. */
  pool: number;
  /** pool < 80: SPEC's "at least 80 materials recommended". */
  small_pool: boolean;
  variants: VariantCounts;
  /** 0–100 of the running batch (variants made since the oldest one still rendering); null when none renders. */
  progress?: number | null;
  groups: { id: number; name: string; ready: number }[];
}

export interface PlanClip {
  id: number;
  name: string;
}

export interface Plan {
  capacity_before: number;
  capacity_after: number;
  max_use: number;
  min_use: number;
  max_spread: number;
  balanced: boolean;
  /** 2 per variant. */
  points: number;
  sequences: PlanClip[][];
  /** Only when generated. */
  variant_ids?: number[];
}

/** A shot group as the quick-mix picker lists it. */
export interface ShotGroup {
  id: number;
  name: string;
  /** Materials in the group. */
  count: number;
  /** Ready ones. */
  ready: number;
  classify_id?: number;
  sort?: number;
  created_at?: Millis;
}

/** The parts of a material row the pickers use (docs/api-materials.md `MediaFile`). */
export interface PickMedia {
  id: number;
  name: string;
  kind: string;
  state: 'processing' | 'ready' | 'failed';
  duration_ms: number | null;
  asr_state?: '' | 'processing' | 'success' | 'failed';
  poster?: string | null;
  src?: string | null;
}

export interface SystemTrack {
  id: number;
  name: string;
  category?: string;
  duration_ms: number | null;
  src?: string | null;
}

export type VariantState = 'processing' | 'success' | 'failed';

export interface Variant {
  id: number;
  /** 0 for a video imported from the video library. */
  project_id: number;
  /** null: imported from the video library (its name is clips[0].name). */
  project_name?: string | null;
  seq: number[];
  clips: { id: number; name: string | null }[];
  state: VariantState;
  error: string;
  /** 0–100 */
  progress: number;
  duration_ms: number;
  /** 1 used, 0 unused */
  used: number;
  /** Signed MP4 URL, playable in <video>. */
  src: string | null;
  /** JPEG URL. */
  cover: string | null;
  job_id?: number;
  created_at: Millis;
  updated_at?: Millis;
}

export interface RenderJob {
  variant_id: number;
  state: VariantState;
  progress: number;
  error: string;
  job: { id: number; state: string; attempts: number; max_attempts: number; last_error: string | null } | null;
}

/** `GET /api/events`, event `variant`: a variant's state changed. */
export interface VariantEvent {
  id: number;
  project_id: number;
  state: VariantState;
  progress: number;
  error: string;
  duration_ms: number;
  updated_at: Millis;
}
