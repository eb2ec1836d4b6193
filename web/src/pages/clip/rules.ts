/**
 * The quick-mix / advanced-mode project form's rules (SPEC §5 "Voice and clip", docs/api-clip.md) and
 * the mapping between the form's values and the project `config` the server stores. Pure functions only.
 * Advanced mode adds per-shot fields (start, caption, transition) and the captions' style; quick mix
 * never sets them, so its config is unchanged.
 */
import { limits } from '@/api/limits';
import type { AudioRef, GroupRule, TextPosition, TextStyle, Project, ProjectConfig, TransitionKind } from '@/api/clip/types';

/** At least three shot groups. */
export const MIN_GROUPS = limits.clip.MIN_GROUPS;
/** The burnt-in title: at most 20 characters. */
export const MAX_TITLE_CHARS = limits.clip.MAX_TITLE_CHARS;
/** Titles a project may give, its videos taking them in turn. */
export const MAX_TITLES = limits.clip.MAX_TITLES;
/** At least 80 materials recommended. */
export const RECOMMENDED_POOL = limits.clip.RECOMMENDED_POOL;
/** Variants per request (and the project's output count) 1–200. */
export const MAX_BATCH = limits.clip.MAX_BATCH;
export const POINTS_PER_VARIANT = limits.clip.POINTS_PER_VARIANT;
export const MAX_NAME_CHARS = limits.clip.MAX_NAME_CHARS;
export const SIZE_MIN = limits.clip.SIZE_MIN;
export const SIZE_MAX = limits.clip.SIZE_MAX;
export const POSITIONS: TextPosition[] = ['top', 'middle', 'bottom'];
export const COLOR_RE = /^#[0-9A-Fa-f]{6}$/;

export const DEFAULT_SUBTITLE_STYLE: TextStyle = { font_id: null, size: 56, color: '#FFFFFF', position: 'bottom' };
export const DEFAULT_TITLE_STYLE: TextStyle = { font_id: null, size: 72, color: '#FFD700', position: 'top' };
/** Advanced mode: the shots' captions. */
export const DEFAULT_SHOT_STYLE: TextStyle = { font_id: null, size: 64, color: '#FFFFFF', position: 'middle' };

/** SPEC §5 "Up to 3 files in one selection": music or voice-over files a project may name. */
export const MAX_TRACKS = limits.clip.MAX_TRACKS;

/** Advanced mode: a shot's caption, at most 30 characters. */
export const MAX_SHOT_TEXT_CHARS = limits.clip.MAX_SHOT_TEXT_CHARS;
/** Advanced mode: the transitions into the next shot (ffmpeg xfade names, docs/api-clip.md). */
export const TRANSITIONS: readonly TransitionKind[] = [
  'fade',
  'dissolve',
  'wipeleft',
  'wiperight',
  'wipeup',
  'wipedown',
  'slideleft',
  'slideright',
  'slideup',
  'slidedown',
  'circleopen',
  'circleclose',
];
export const TRANSITION_MS_MIN = limits.clip.TRANSITION_MS_MIN;
export const TRANSITION_MS_MAX = limits.clip.TRANSITION_MS_MAX;
export const DEFAULT_TRANSITION_MS = 500;

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
  /** Longest part of each clip, whole seconds; empty or 0 = the whole clip (advanced mode: the length from the start). */
  max_s?: number | null;
  /** Advanced mode: where each clip of the shot starts, seconds (empty = its beginning). */
  start_s?: number | null;
  /** Advanced mode: the caption shown while the shot plays (blank = none). */
  text?: string;
  /** Advanced mode: the transition into the next shot (null = a hard cut); never on the last shot. */
  transition?: TransitionKind | null;
  /** Advanced mode: the transition's length, ms (empty = 500). */
  transition_ms?: number | null;
}

export type GroupsProblem = 'tooFew' | 'repeated' | 'badMax' | null;

export function groupsProblem(rows: readonly GroupRow[] | undefined): GroupsProblem {
  const list = rows ?? [];
  if (list.length < MIN_GROUPS) return 'tooFew';
  if (new Set(list.map((r) => r.group_id)).size !== list.length) return 'repeated';
  if (list.some((r) => r.max_s !== undefined && r.max_s !== null && (!Number.isInteger(r.max_s) || r.max_s < 0))) return 'badMax';
  return null;
}

export type ShotProblem = 'badStart' | 'textTooLong' | 'badTransition' | 'badTransitionMs' | 'lastTransition';

/** Advanced mode: what is wrong with one shot (`index` of `count`), or null. */
export function shotProblem(row: GroupRow, index: number, count: number): ShotProblem | null {
  if (row.start_s !== undefined && row.start_s !== null && (!Number.isFinite(row.start_s) || row.start_s < 0)) return 'badStart';
  if (charCount((row.text ?? '').trim()) > MAX_SHOT_TEXT_CHARS) return 'textTooLong';
  if (row.transition) {
    if (index === count - 1) return 'lastTransition';
    if (!TRANSITIONS.includes(row.transition)) return 'badTransition';
    const ms = row.transition_ms ?? DEFAULT_TRANSITION_MS;
    if (!Number.isInteger(ms) || ms < TRANSITION_MS_MIN || ms > TRANSITION_MS_MAX) return 'badTransitionMs';
  }
  return null;
}

/** Advanced mode: the first shot with a problem (the form's check), or null. */
export function shotsProblem(rows: readonly GroupRow[] | undefined): { index: number; problem: ShotProblem } | null {
  const list = rows ?? [];
  for (let index = 0; index < list.length; index++) {
    const problem = shotProblem(list[index], index, list.length);
    if (problem) return { index, problem };
  }
  return null;
}

/** The last shot has nothing to transition into: its transition is dropped (after a move or removal). */
export function clearLastTransition(rows: readonly GroupRow[]): GroupRow[] {
  const last = rows.length - 1;
  return rows.map((r, i) => (i === last && r.transition ? { ...r, transition: null } : r));
}

/** Whether any shot has a caption (the captions' style is then sent and shown). */
export function hasShotTexts(rows: readonly GroupRow[] | undefined): boolean {
  return (rows ?? []).some((r) => (r.text ?? '').trim() !== '');
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
  /** `media_ids`: up to MAX_TRACKS library files, used by the variants in turn. */
  music: { source: MusicSource; media_ids?: number[]; system_music_id?: number | null; volume: number };
  voice: { media_ids?: number[]; volume: number };
  subtitles: { enabled: boolean; style: TextStyle };
  /** `more`: further titles, the videos taking the first and these in turn. */
  title: { text: string; more?: string[]; style: TextStyle };
  /** Cover frame time, seconds. */
  cover_s: number;
  /** Each video's cover from another second (the cover time plus its turn, 0–4 s later). */
  cover_vary?: boolean;
  /** Each video a later stretch of every clip longer than its shot. */
  trim_vary?: boolean;
  /** Each video's texts in another place (the three positions in turn). */
  text_vary?: boolean;
  output_count: number;
  /** Advanced mode: the shots' captions' style (sent only when a shot has a caption). */
  shot_style: TextStyle;
}

export function emptyForm(): ProjectFormValues {
  return {
    name: '',
    groups: [],
    music: { source: 'none', media_ids: [], system_music_id: null, volume: 60 },
    voice: { media_ids: [], volume: 100 },
    subtitles: { enabled: false, style: { ...DEFAULT_SUBTITLE_STYLE } },
    title: { text: '', more: [], style: { ...DEFAULT_TITLE_STYLE } },
    cover_s: 1,
    cover_vary: false,
    trim_vary: false,
    text_vary: false,
    output_count: 5,
    shot_style: { ...DEFAULT_SHOT_STYLE },
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
    groups: (c.groups ?? []).map(toRow),
    music: music
      ? {
          source: music.system_music_id ? 'builtin' : 'mine',
          media_ids: tracksOf(music),
          system_music_id: music.system_music_id ?? null,
          volume: music.volume ?? base.music.volume,
        }
      : base.music,
    voice: c.voice ? { media_ids: tracksOf(c.voice), volume: c.voice.volume ?? base.voice.volume } : base.voice,
    subtitles: { enabled: Boolean(c.subtitles?.enabled), style: styleOf(c.subtitles?.style, DEFAULT_SUBTITLE_STYLE) },
    title: titleOf(c.title),
    cover_s: (c.cover_ms ?? 0) / 1000,
    cover_vary: Boolean(c.cover_vary),
    trim_vary: Boolean(c.trim_vary),
    text_vary: Boolean(c.text_vary),
    output_count: c.output_count ?? base.output_count,
    shot_style: styleOf(c.shot_style ?? undefined, DEFAULT_SHOT_STYLE),
  };
}

/** A stored title as form values: the first of several titles in the field, the rest in `more`. */
function titleOf(t: ProjectConfig['title']): ProjectFormValues['title'] {
  const texts = t?.texts?.length ? t.texts : [t?.text ?? ''];
  return { text: texts[0] ?? '', more: texts.slice(1), style: styleOf(t?.style, DEFAULT_TITLE_STYLE) };
}

/** The titles the form gives, blanks and repeats left out, at most MAX_TITLES. */
export function titlesOf(title: Partial<ProjectFormValues['title']>): string[] {
  const all = [title.text ?? '', ...(title.more ?? [])].map((s) => (s ?? '').trim()).filter(Boolean);
  return [...new Set(all)].slice(0, MAX_TITLES);
}

/** The library files an audio setting names: `media_ids`, or `media_id` alone. */
export function tracksOf(a: Pick<AudioRef, 'media_id' | 'media_ids'>): number[] {
  if (a.media_ids?.length) return [...a.media_ids];
  return a.media_id ? [a.media_id] : [];
}

/** One file keeps the plain `{media_id}` shape; several go as `{media_ids}`. */
function trackRef(ids: number[]): Pick<AudioRef, 'media_id' | 'media_ids'> {
  const list = ids.slice(0, MAX_TRACKS);
  return list.length === 1 ? { media_id: list[0] } : { media_ids: list };
}

/** A stored shot as a form row; the advanced fields only when set (quick-mix rows stay {group_id, max_s}). */
function toRow(g: GroupRule): GroupRow {
  const row: GroupRow = { group_id: g.group_id, max_s: g.max_ms ? Math.round(g.max_ms / 1000) : null };
  if (g.in_ms) row.start_s = g.in_ms / 1000;
  if (g.text) row.text = g.text;
  if (g.transition) {
    row.transition = g.transition.kind;
    row.transition_ms = g.transition.ms ?? DEFAULT_TRANSITION_MS;
  }
  return row;
}

/** A form row as the stored shot; the advanced fields only when used (a quick-mix shot stays {group_id, max_ms}). */
function toRule(r: GroupRow, index: number, count: number): GroupRule {
  const rule: GroupRule = { group_id: r.group_id, max_ms: r.max_s ? Math.round(r.max_s) * 1000 : 0 };
  const inMs = r.start_s ? Math.max(0, Math.round(r.start_s * 1000)) : 0;
  if (inMs) rule.in_ms = inMs;
  const text = (r.text ?? '').trim();
  if (text) rule.text = text;
  if (r.transition && index < count - 1) rule.transition = { kind: r.transition, ms: r.transition_ms ?? DEFAULT_TRANSITION_MS };
  return rule;
}

/** Form values as the `config` sent to add / modify. Parts left out are simply not sent. */
export function toConfig(v: Partial<ProjectFormValues>): ProjectConfig {
  const base = emptyForm();
  const music = v.music ?? base.music;
  const voice = v.voice ?? base.voice;
  const subtitles = v.subtitles ?? base.subtitles;
  const title = v.title ?? base.title;
  const config: ProjectConfig = {
    groups: (v.groups ?? []).map((g, i, all) => toRule(g, i, all.length)),
    subtitles: { enabled: Boolean(subtitles.enabled), style: styleOf(subtitles.style, DEFAULT_SUBTITLE_STYLE) },
    cover_ms: Math.max(0, Math.round((v.cover_s ?? 0) * 1000)),
    output_count: v.output_count ?? base.output_count,
  };
  // Sent only when on, like the server writes it.
  if (v.cover_vary) config.cover_vary = true;
  if (v.trim_vary) config.trim_vary = true;
  if (v.text_vary) config.text_vary = true;
  const musicVolume = music.volume ?? base.music.volume;
  const musicIds = music.media_ids ?? [];
  if (music.source === 'mine' && musicIds.length) config.music = { ...trackRef(musicIds), volume: musicVolume };
  if (music.source === 'builtin' && music.system_music_id) config.music = { system_music_id: music.system_music_id, volume: musicVolume };
  const voiceIds = voice.media_ids ?? [];
  if (voiceIds.length) config.voice = { ...trackRef(voiceIds), volume: voice.volume ?? base.voice.volume };
  // One title keeps the plain `{text}` shape; several go as `texts` too (the first as `text`).
  const texts = titlesOf(title);
  if (texts.length === 1) config.title = { text: texts[0], style: styleOf(title.style, DEFAULT_TITLE_STYLE) };
  if (texts.length > 1) config.title = { text: texts[0], texts, style: styleOf(title.style, DEFAULT_TITLE_STYLE) };
  if (hasShotTexts(v.groups)) config.shot_style = styleOf(v.shot_style, DEFAULT_SHOT_STYLE);
  return config;
}

/** Largest count one request may ask for: what the groups still allow, at most 200. */
export function maxBatch(capacity: number): number {
  return Math.max(0, Math.min(MAX_BATCH, capacity));
}

/**
 * Whether the project's videos carry burned text (the voice-over's subtitles, the title, a shot's
 * caption), i.e. whether its slots being fixed (`Project.fixed_slots`) changes how fast a batch renders.
 */
export function hasBurnedText(c: ProjectConfig): boolean {
  const voiced = !!c.voice && tracksOf(c.voice).length > 0;
  const titled = !!c.title?.text.trim() || !!c.title?.texts?.some((x) => x.trim());
  return (c.subtitles.enabled && voiced) || titled || c.groups.some((g) => (g.text ?? '').trim() !== '');
}
