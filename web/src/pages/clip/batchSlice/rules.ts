/**
 * The slicing project form's rules (docs/api-clip.md "Batch slice") and the mapping from the form's
 * values to the request. Pure functions only; the server checks the same rules (422 naming the field).
 */
import type { PickVideo, SliceMode, SliceSettings } from '@/api/clip/slice';

export const MAX_NAME_CHARS = 50;
/** Slice lengths in seconds (fixed length, and the subtitle mode's minimum and maximum). */
export const MIN_SECONDS = 1;
export const MAX_SECONDS = 60;
export const DEFAULT_SECONDS = 5;
export const DEFAULT_MIN_SECONDS = 3;
export const DEFAULT_MAX_SECONDS = 10;
/** While a source is being sliced the detail polls this often. */
export const POLL_MS = 2000;

export interface SliceFormValues {
  name?: string;
  mode?: SliceMode;
  seconds?: number | null;
  min_seconds?: number | null;
  max_seconds?: number | null;
  group_id?: number | null;
  resource_ids?: number[];
}

export type SliceProblem =
  | { field: 'name'; key: 'nameRequired' | 'nameTooLong' }
  | { field: 'seconds' | 'min_seconds' | 'max_seconds'; key: 'secondsRequired' | 'secondsRange' }
  | { field: 'min_seconds'; key: 'minOverMax' }
  | { field: 'group_id'; key: 'groupRequired' }
  | { field: 'resource_ids'; key: 'videosRequired' | 'noSubtitles' };

function seconds(field: 'seconds' | 'min_seconds' | 'max_seconds', v: number | null | undefined): SliceProblem | null {
  if (v === null || v === undefined || Number.isNaN(v)) return { field, key: 'secondsRequired' };
  if (!Number.isInteger(v) || v < MIN_SECONDS || v > MAX_SECONDS) return { field, key: 'secondsRange' };
  return null;
}

/** The first broken rule, in the order the form shows its fields; `videos` only when creating. */
export function sliceProblems(v: SliceFormValues, videos?: readonly PickVideo[]): SliceProblem[] {
  const out: SliceProblem[] = [];
  const name = (v.name ?? '').trim();
  if (!name) out.push({ field: 'name', key: 'nameRequired' });
  else if (Array.from(name).length > MAX_NAME_CHARS) out.push({ field: 'name', key: 'nameTooLong' });
  if (videos) {
    const ids = v.resource_ids ?? [];
    if (!ids.length) out.push({ field: 'resource_ids', key: 'videosRequired' });
    else if (v.mode === 'subtitle' && withoutSubtitles(ids, videos).length) out.push({ field: 'resource_ids', key: 'noSubtitles' });
  }
  if (v.mode === 'subtitle') {
    const min = seconds('min_seconds', v.min_seconds);
    const max = seconds('max_seconds', v.max_seconds);
    if (min) out.push(min);
    if (max) out.push(max);
    if (!min && !max && (v.min_seconds as number) > (v.max_seconds as number)) out.push({ field: 'min_seconds', key: 'minOverMax' });
  } else {
    const s = seconds('seconds', v.seconds);
    if (s) out.push(s);
  }
  if (!v.group_id) out.push({ field: 'group_id', key: 'groupRequired' });
  return out;
}

/** Chosen videos whose subtitles were not recognized (subtitle mode cannot cut them). */
export function withoutSubtitles(ids: readonly number[], videos: readonly PickVideo[]): PickVideo[] {
  const byId = new Map(videos.map((m) => [m.id, m]));
  return ids.map((id) => byId.get(id)).filter((m): m is PickVideo => !!m && m.asr_state !== 'success');
}

/** What the server takes: only the lengths the mode uses. */
export function toSettings(v: SliceFormValues): SliceSettings {
  const mode: SliceMode = v.mode === 'subtitle' ? 'subtitle' : 'fixed';
  return {
    name: (v.name ?? '').trim(),
    mode,
    ...(mode === 'fixed' ? { seconds: v.seconds ?? null } : { min_seconds: v.min_seconds ?? null, max_seconds: v.max_seconds ?? null }),
    group_id: Number(v.group_id),
  };
}

/** A finished / total summary of a project's sources. */
export function sourcesSummary(sources: readonly { state: string }[]) {
  const count = (s: string) => sources.filter((x) => x.state === s).length;
  return { total: sources.length, success: count('success'), processing: count('processing'), failed: count('failed'), pending: count('pending') };
}

/** m:ss(.t) of a point in the source, in seconds. */
export function clock(secondsIn: number): string {
  const ms = Math.round(secondsIn * 1000);
  const m = Math.floor(ms / 60000);
  const s = Math.floor((ms % 60000) / 1000);
  const tenth = Math.floor((ms % 1000) / 100);
  return `${m}:${String(s).padStart(2, '0')}${ms % 1000 ? `.${tenth}` : ''}`;
}
