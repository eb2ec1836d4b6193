/** Material libraries (docs/api-materials.md). */
import type { Millis } from '../types';

export type MediaKind = 'video' | 'image' | 'audio' | 'font';
export type MediaState = 'processing' | 'ready' | 'failed';
export type AsrState = '' | 'processing' | 'success' | 'failed';
/** Libraries the resumable upload can fill. */
export type UploadLibrary = 'resource' | 'upload' | 'video' | 'voice' | 'music';

/** One stored file of any library, with its signed URLs (usable in <img>/<video>/<audio>). */
export interface MediaFile {
  id: number;
  library: string;
  kind: MediaKind;
  group_id: number;
  classify_id: number;
  file_type_id: number;
  name: string;
  original_name: string;
  mime: string;
  size: number;
  width: number;
  height: number;
  duration_ms: number;
  fps: number;
  video_codec: string;
  audio_codec: string;
  has_audio: number | boolean;
  rotation: number;
  loudness: number | null;
  state: MediaState;
  error: string;
  progress: number;
  asr_state: AsrState;
  asr_error: string;
  created_at: Millis;
  updated_at?: Millis;
  src: string;
  poster: string | null;
  strip: string | null;
  mezzanine: string | null;
  fileName: string;
}

/** A shot group of the multi-shot library. */
export interface ShotGroup {
  id: number;
  name: string;
  classify_id: number;
  kind: 'video' | 'broadcast';
  sort: number;
  count: number;
  ready: number;
  created_at: Millis;
}

export interface ClassifyNode {
  id: number;
  name: string;
  parent_id: number;
  children: ClassifyNode[];
  groups?: ShotGroup[];
}

/** A merchant's category of audio / video / image files. */
export interface FileType {
  id: number;
  name: string;
  kind: 'audio' | 'video' | 'image';
  parent_id: number;
  children?: FileType[];
}

/** A track of the operator's built-in music set. */
export interface SystemMusic {
  id: number;
  name: string;
  category: string;
  mime: string;
  size: number;
  duration_ms: number;
  created_at: Millis;
  src: string;
}

/** `GET /api/events`, event `media`. */
export interface MediaEvent {
  id: number;
  state: MediaState;
  progress: number;
  error: string;
  asr_state: AsrState;
  updated_at: Millis;
}

export interface AsrLine {
  id?: number;
  /** Seconds. */
  start: number;
  end: number;
  content: string;
}

export interface AsrTimeline {
  resource_id: number;
  /** Seconds. */
  duration: number;
  src: string;
  asr_state: AsrState;
  asr_error: string;
  lines: AsrLine[];
}

export interface AsrStarted {
  job_id: number;
  points: number;
  asr_state: 'processing';
}

/** `/ajax/ossUpload` and `getYunData().upload`. */
export interface UploadPolicy {
  upload_id: string;
  file_name: string;
  size: number;
  chunk_size: number;
  total_chunks: number;
  received: number[];
  expires_at: Millis;
  max_size?: number;
  signature: string;
  chunk_url: string;
}
