/**
 * Quick mix and the finished-video library (docs/api-clip.md). The server's answers are generated from its
 * OpenAPI document (`make api-types` writes ../schema.d.ts); the project configuration (the body the console
 * sends and stores), the state unions and the server-sent events are written here.
 */
import type { MediaFile } from '../materials/types';
import type { components } from '../schema';
import type { Millis } from '../types';

type Schemas = components['schemas'];

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

export type VariantCounts = Schemas['VariantCounts'];

/**
 * `config` is narrowed: the document describes the stored JSON as an empty object (`serde_json::Value`),
 * while the server sends the ProjectConfig it was saved with.
 */
export type Project = Omit<Schemas['ProjectView'], 'config'> & { config: ProjectConfig };

export type PlanClip = Schemas['PlannedClip'];

export type Plan = Schemas['PlanView'];

/** A shot group as the quick-mix picker lists it. */
export type ShotGroup = Schemas['Group'];

/** The parts of a material row the pickers use (docs/api-materials.md `MediaFile`). */
export type PickMedia = Pick<MediaFile, 'id' | 'name' | 'kind' | 'state' | 'duration_ms' | 'asr_state' | 'poster' | 'src'>;

/** The parts of a built-in track the pickers use. */
export type SystemTrack = Pick<Schemas['MusicView'], 'id' | 'name' | 'category' | 'duration_ms' | 'src'>;

export type VariantState = Schemas['VariantState'];

export type Variant = Schemas['VariantView'];

/** How many variants `video_cancel` stopped. */
export type Cancelled = Schemas['Cancelled'];
/** The variants `add` made of library videos. */
export type Imported = Schemas['Imported'];

export type RenderJob = Schemas['RenderView'];

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
