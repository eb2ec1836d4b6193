/**
 * Material libraries (docs/api-materials.md). The server's answers are generated from its OpenAPI document
 * (`make api-types` writes ../schema.d.ts); only the console's own narrowings (the string unions the pages
 * switch on) and the types the document does not describe are written here.
 */
import type { components } from '../schema';
import type { Millis } from '../types';

type Schemas = components['schemas'];

export type MediaKind = Schemas['MediaKind'];
export type MediaState = Schemas['IngestState'];
export type AsrState = Schemas['AsrState'];
/** Libraries the resumable upload can fill. */
export type UploadLibrary = 'resource' | 'upload' | 'video' | 'voice' | 'music';
/** The kinds of a merchant's file categories. */
export type FileTypeKind = Schemas['FileTypeKind'];

/** One stored file of any library, with its signed URLs (usable in <img>/<video>/<audio>). */
export type MediaFile = Schemas['MediaView'];

/** A shot group of the multi-shot library. */
export type ShotGroup = Schemas['Group'];

export type ClassifyNode = Schemas['ClassifyNode'];

/** A merchant's category of audio / video / image files (a list row). */
export type FileType = Schemas['FileType'];
/** A category in the image tree. */
export type FileTypeNode = Schemas['TypeNode'];

/** A track of the operator's built-in music set. */
export type SystemMusic = Schemas['MusicView'];

/** `GET /api/events`, event `media` (server-sent events are not in the OpenAPI document). */
export interface MediaEvent {
  id: number;
  state: MediaState;
  progress: number;
  error: string;
  asr_state: AsrState;
  updated_at: Millis;
}

/** A subtitle line as saved (`LineIn`). Seconds. */
export type AsrLine = Schemas['LineIn'];
/** A subtitle line as read: one saved, with its id. */
export type AsrLineView = Schemas['LineView'];

export type AsrTimeline = Schemas['Timeline'];

export type AsrStarted = Schemas['Started'];

/** `/ajax/ossUpload` and `getYunData().upload`. */
export type UploadPolicy = Schemas['UploadStatus'];
