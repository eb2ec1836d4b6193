/**
 * Quick mix and the finished-video library (docs/api-clip.md). The server's answers are generated from its
 * OpenAPI document (`make api-types` writes ../schema.d.ts), the project configuration included; the
 * server-sent events are written here.
 */
import type { MediaFile } from '../materials/types';
import type { components } from '../schema';
import type { Millis } from '../types';

type Schemas = components['schemas'];

/** A part of a video the product generated: AI voice-over (audio), AI script (text), one-touch assembly (video). */
export type AiPart = Schemas['AiPart'];
export type RiskLevel = Schemas['RiskLevel'];
export type RiskReason = Schemas['RiskReason'];

/** Where a caption or title sits on the frame. */
export type TextPosition = Schemas['TextPosition'];

/** How a caption, subtitle or title is drawn (font_id null = the built-in CJK font; size 16–160 px; color #RRGGBB). */
export type TextStyle = Schemas['TextStyle'];

/** The transitions advanced mode offers (ffmpeg xfade names). */
export type TransitionKind = Schemas['TransitionKind'];

/** Advanced mode: the transition into the next shot (ms 200–2000, default 500). */
export type Transition = Schemas['Transition'];

/** A shot: its group and how its clips are cut (advanced mode: start, caption, transition into the next shot). */
export type GroupRule = Schemas['GroupRule'];

/** Music or a voice-over: up to 3 library files (SPEC §5), taken in turn by the variants, or a built-in track; volume 0–100. */
export type AudioRef = Schemas['AudioRef'];

/** A project's settings: the body the console sends and the server answers. */
export type ProjectConfig = Schemas['ProjectConfig'];

export type ProjectMode = 'normal' | 'senior';

export type VariantCounts = Schemas['VariantCounts'];

export type Project = Schemas['ProjectView'];

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
export type DownloadLink = Schemas['DownloadLink'];

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
