/**
 * The quick-mix project form's rules (SPEC §5 "Voice and clip", docs/api-clip.md) and the mapping
 * between the form's values and the project `config` the server stores. Pure functions only.
 */
import type { TextPosition, TextStyle, Project, ProjectConfig } from '@/api/clip/types';

/** At least three shot groups. */
export const MIN_GROUPS = 3;
/** The burnt-in title: at most 20 characters. */
export const MAX_TITLE_CHARS = 20;
/** At least 80 materials recommended. */
export const RECOMMENDED_POOL = 80;
/** Variants per request (and the project's output count) 1–200. */
export const MAX_BATCH = 200;
export const POINTS_PER_VARIANT = 2;
export const MAX_NAME_CHARS = 50;
export const SIZE_MIN = 16;
export const SIZE_MAX = 160;
export const POSITIONS: TextPosition[] = ['top', 'middle', 'bottom'];
export const COLOR_RE = /^#[0-9A-Fa-f]{6}$/;

export const DEFAULT_SUBTITLE_STYLE: TextStyle = { font_id: null, size: 56, color: '#FFFFFF', position: 'bottom' };
export const DEFAULT_TITLE_STYLE: TextStyle = { font_id: null, size: 72, color: '#FFD700', position: 'top' };

/** Characters as the server counts them (code points: an emoji is one). */
export function charCount(text: string | null | undefined): number {
  return Array.from(text ?? '').length;
}

export function isColor(value: unknown): value is string {
  return typeof value === 'string' && COLOR_RE.test(value);
}

/** What a colour picker hands over (a string or an object with toHexString) as '#RRGGBB'. */
export function toHexColor(value: unknown): string {
  const raw =
    typeof value === 'string'
      ? value
      : value && typeof (value as { toHexString?: unknown }).toHexString === 'function'
        ? (value as { toHexString: () => string }).toHexString()
        : '';
  const hex = raw.trim().toUpperCase();
  // #RGB -> #RRGGBB; #RRGGBBAA (opaque picker) -> #RRGGBB
  if (/^#[0-9A-F]{3}$/.test(hex)) return `#${hex[1]}${hex[1]}${hex[2]}${hex[2]}${hex[3]}${hex[3]}`;
  if (/^#[0-9A-F]{8}$/.test(hex)) return hex.slice(0, 7);
  return hex;
}

export interface GroupRow {
  group_id: number;
  /** Longest part of each clip, whole seconds; empty or 0 = the whole clip. */
  max_s?: number | null;
}

export type GroupsProblem = 'tooFew' | 'repeated' | 'badMax' | null;

export function groupsProblem(rows: readonly GroupRow[] | undefined): GroupsProblem {
  const list = rows ?? [];
  if (list.length < MIN_GROUPS) return 'tooFew';
  if (new Set(list.map((r) => r.group_id)).size !== list.length) return 'repeated';
  if (list.some((r) => r.max_s !== undefined && r.max_s !== null && (!Number.isInteger(r.max_s) || r.max_s < 0))) return 'badMax';
  return null;
}

/** Unique variants the groups allow: the product of their ready counts. */
export function capacityOf(ready: readonly number[]): number {
  if (!ready.length) return 0;
  return ready.reduce((a, b) => a * Math.max(0, b), 1);
}

/** Ready clips over all groups. */
export function poolOf(ready: readonly number[]): number {
  return ready.reduce((a, b) => a + Math.max(0, b), 0);
}

export function isSmallPool(ready: readonly number[]): boolean {
  return poolOf(ready) < RECOMMENDED_POOL;
}

/** Moves the row at `from` to `to` (drag and drop, up and down). */
export function moveRow<T>(rows: readonly T[], from: number, to: number): T[] {
  if (from === to || from < 0 || from >= rows.length || to < 0 || to >= rows.length) return [...rows];
  const next = [...rows];
  const [row] = next.splice(from, 1);
  next.splice(to, 0, row);
  return next;
}

export type MusicSource = 'none' | 'mine' | 'builtin';

export interface ProjectFormValues {
  name: string;
  groups: GroupRow[];
  music: { source: MusicSource; media_id?: number | null; system_music_id?: number | null; volume: number };
  voice: { media_id?: number | null; volume: number };
  subtitles: { enabled: boolean; style: TextStyle };
  title: { text: string; style: TextStyle };
  /** Cover frame time, seconds. */
  cover_s: number;
  output_count: number;
}

export function emptyForm(): ProjectFormValues {
  return {
    name: '',
    groups: [],
    music: { source: 'none', media_id: null, system_music_id: null, volume: 60 },
    voice: { media_id: null, volume: 100 },
    subtitles: { enabled: false, style: { ...DEFAULT_SUBTITLE_STYLE } },
    title: { text: '', style: { ...DEFAULT_TITLE_STYLE } },
    cover_s: 1,
    output_count: 5,
  };
}

function styleOf(style: Partial<TextStyle> | undefined, fallback: TextStyle): TextStyle {
  return {
    font_id: style?.font_id ?? null,
    size: style?.size ?? fallback.size,
    color: style?.color ? toHexColor(style.color) : fallback.color,
    position: style?.position ?? fallback.position,
  };
}

/** A stored project as form values. */
export function toForm(project: Pick<Project, 'name' | 'config'>): ProjectFormValues {
  const c = project.config;
  const base = emptyForm();
  const music = c.music;
  return {
    name: project.name,
    groups: (c.groups ?? []).map((g) => ({ group_id: g.group_id, max_s: g.max_ms ? Math.round(g.max_ms / 1000) : null })),
    music: music
      ? {
          source: music.system_music_id ? 'builtin' : 'mine',
          media_id: music.media_id ?? null,
          system_music_id: music.system_music_id ?? null,
          volume: music.volume ?? base.music.volume,
        }
      : base.music,
    voice: c.voice ? { media_id: c.voice.media_id ?? null, volume: c.voice.volume ?? base.voice.volume } : base.voice,
    subtitles: { enabled: Boolean(c.subtitles?.enabled), style: styleOf(c.subtitles?.style, DEFAULT_SUBTITLE_STYLE) },
    title: { text: c.title?.text ?? '', style: styleOf(c.title?.style, DEFAULT_TITLE_STYLE) },
    cover_s: (c.cover_ms ?? 0) / 1000,
    output_count: c.output_count ?? base.output_count,
  };
}

/** Form values as the `config` sent to add / modify. Parts left out are simply not sent. */
export function toConfig(v: Partial<ProjectFormValues>): ProjectConfig {
  const base = emptyForm();
  const music = v.music ?? base.music;
  const voice = v.voice ?? base.voice;
  const subtitles = v.subtitles ?? base.subtitles;
  const title = v.title ?? base.title;
  const config: ProjectConfig = {
    groups: (v.groups ?? []).map((g) => ({ group_id: g.group_id, max_ms: g.max_s ? Math.round(g.max_s) * 1000 : 0 })),
    subtitles: { enabled: Boolean(subtitles.enabled), style: styleOf(subtitles.style, DEFAULT_SUBTITLE_STYLE) },
    cover_ms: Math.max(0, Math.round((v.cover_s ?? 0) * 1000)),
    output_count: v.output_count ?? base.output_count,
  };
  const musicVolume = music.volume ?? base.music.volume;
  if (music.source === 'mine' && music.media_id) config.music = { media_id: music.media_id, volume: musicVolume };
  if (music.source === 'builtin' && music.system_music_id) config.music = { system_music_id: music.system_music_id, volume: musicVolume };
  if (voice.media_id) config.voice = { media_id: voice.media_id, volume: voice.volume ?? base.voice.volume };
  const text = (title.text ?? '').trim();
  if (text) config.title = { text, style: styleOf(title.style, DEFAULT_TITLE_STYLE) };
  return config;
}

/** Largest count one request may ask for: what the groups still allow, at most 200. */
export function maxBatch(capacity: number): number {
  return Math.max(0, Math.min(MAX_BATCH, capacity));
}
