/**
 * The release task's client-side rules (SPEC §5 "Publishing", docs/api-matrix.md "Rules") and the
 * mapping from the task form's values to the contract's TaskReq. Pure functions only; the server
 * checks the same rules again and answers 422 with `data.field`.
 */
import { limits } from '@/api/limits';
import dayjs, { type Dayjs } from 'dayjs';
import { merchantToday } from '@/utils/format';
import type { ContentDeclaration, ItemState, MountType, TaskKind, TaskPlatform, TaskReq, TimeMode } from '@/api/matrix/types';

/** The content declarations a task can choose, `auto` first (the default). */
export const DECLARATIONS: ContentDeclaration[] = ['auto', 'none', 'original', 'ai_generated', 'reposted', 'fiction'];

/**
 * What a post declares (issue 39): the task's choice, or for `auto` what its video is — any part the
 * product generated (AI voice, AI script, one-touch) declares AI-generated, the merchant's own footage
 * original. The server resolves the same way (`ContentDeclaration::resolve`).
 */
export function resolveDeclaration(chosen: ContentDeclaration, generated: boolean): Exclude<ContentDeclaration, 'auto'> {
  if (chosen !== 'auto') return chosen;
  return generated ? 'ai_generated' : 'original';
}

/**
 * The label a platform's creator console shows for a declaration (the flows pick it: `platforms::browser`),
 * `null` when the post carries none there; `undefined` for the open-API platforms, whose create calls take
 * no declaration (the video's own AI label and metadata still identify it).
 */
export function consoleDeclaration(platform: string, d: Exclude<ContentDeclaration, 'auto'>): string | null | undefined {
  switch (platform) {
    case 'xhs':
      return { none: null, original: '自主拍摄', ai_generated: '笔记含AI合成内容', reposted: '来源转载', fiction: '虚构演绎，仅供娱乐' }[d];
    case 'sph':
      return { none: '无需标注', original: '内容为自行拍摄', ai_generated: '含AI生成内容', reposted: '内容为转载', fiction: '无需标注' }[d];
    case 'shop':
      return { none: null, original: null, ai_generated: '内容由AI生成', reposted: '内容为转载信息', fiction: '虚构演绎，仅供娱乐' }[d];
    default:
      return undefined;
  }
}

export const TITLE_MAX = limits.matrix.TITLE_MAX;
export const NAME_MAX = limits.matrix.NAME_MAX;
export const COMMENT_MAX = limits.matrix.COMMENT_MAX;
/** Up to 5 top comments are picked at random for each item. */
export const COMMENT_PICK = limits.matrix.COMMENT_PICK;
/** At most 3 videos per account per day. */
export const PER_ACCOUNT_DAY = limits.matrix.PER_ACCOUNT_DAY;
export const DAYS_MAX = limits.matrix.DAYS_MAX;
export const GROUP_NAME_MAX = limits.matrix.GROUP_NAME_MAX;
export const REMARKS_MAX = limits.matrix.REMARKS_MAX;
export const REASON_MAX = limits.matrix.REASON_MAX;
export const TITLE_SEPARATOR = '#';
export const MOUNT_TYPES: MountType[] = ['none', 'poi', 'mini_program', 'official', 'product'];
export const TIME_MODES: TimeMode[] = ['random', 'specified', 'timed'];
export const ITEM_STATES: ItemState[] = ['to_release', 'publishing', 'published', 'released', 'failed'];

/** Characters as the server counts them (code points: an emoji is one). */
export function charCount(text: string | null | undefined): number {
  return Array.from(text ?? '').length;
}

// ---- titles

export interface TitleCheck {
  /** 1-based position among the non-empty titles. */
  index: number;
  title: string;
  length: number;
  tooLong: boolean;
}

/** The titles typed as 'one#two#three': trimmed, empty pieces (a stray '#') dropped. */
export function splitTitles(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(TITLE_SEPARATOR)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function joinTitles(titles: readonly string[]): string {
  return titles.map((s) => s.trim()).filter(Boolean).join(TITLE_SEPARATOR);
}

export function checkTitles(text: string | null | undefined, max = TITLE_MAX): TitleCheck[] {
  return splitTitles(text).map((title, i) => {
    const length = charCount(title);
    return { index: i + 1, title, length, tooLong: length > max };
  });
}

/** Adds titles, skipping ones already there. */
export function appendTitles(text: string | null | undefined, more: readonly string[]): string {
  const have = splitTitles(text);
  const seen = new Set(have);
  for (const t of more) {
    const v = t.replace(/#/g, '').trim();
    if (v && !seen.has(v)) {
      seen.add(v);
      have.push(v);
    }
  }
  return joinTitles(have);
}

// ---- top comments

export type ContactKind = 'phone' | 'wechat' | 'qq' | 'url';

const URL_RE = /(https?:\/\/|www\.)\S+|\b[a-z0-9][a-z0-9-]*\.(com|cn|net|org|top|xyz|cc|io|me|vip|shop|info|co|tv|link|site|club)\b/i;
const PHONE_RE = /(\+?86[-\s]?)?1[3-9]\d{9}(?!\d)|0\d{2,3}-?\d{7,8}(?!\d)/;
const QQ_RE = /(qq|扣扣|企鹅)[^0-9a-z]{0,4}\d{5,11}/i;
const WECHAT_RE = /(微信|威信|薇信|v信|vx|wx|weixin|wechat|加v|\+v)[号]?[^0-9a-z]{0,4}[a-z0-9][-_a-z0-9]{4,19}/i;

/** Which contact detail a text carries, if any (phone numbers, WeChat ids, QQ, links). */
export function contactKind(text: string): ContactKind | null {
  // digits split by spaces or dashes ('138 0013 8000') count as one number
  const squeezed = text.replace(/(\d)[\s-]+(?=\d)/g, '$1');
  if (URL_RE.test(text)) return 'url';
  if (QQ_RE.test(squeezed)) return 'qq';
  if (WECHAT_RE.test(squeezed)) return 'wechat';
  if (PHONE_RE.test(squeezed)) return 'phone';
  return null;
}

export interface CommentProblem {
  /** 1-based line number in the text as typed. */
  line: number;
  text: string;
  kind: 'tooLong' | ContactKind;
  length: number;
}

/** The top comments: one per line, blank lines dropped. */
export function commentLines(text: string | null | undefined): string[] {
  return (text ?? '')
    .split(/\r?\n/)
    .map((s) => s.trim())
    .filter(Boolean);
}

export function commentProblems(text: string | null | undefined, max = COMMENT_MAX): CommentProblem[] {
  const out: CommentProblem[] = [];
  (text ?? '').split(/\r?\n/).forEach((raw, i) => {
    const line = raw.trim();
    if (!line) return;
    const length = charCount(line);
    if (length > max) out.push({ line: i + 1, text: line, kind: 'tooLong', length });
    else {
      const kind = contactKind(line);
      if (kind) out.push({ line: i + 1, text: line, kind, length });
    }
  });
  return out;
}

// ---- accounts, videos and the schedule

export type CountProblem = 'noAccounts' | 'noVideos' | 'accountsOverVideos' | 'publishOverVideos' | null;

/** SPEC §5: accounts ≤ videos; publish count ≤ selected videos. */
export function countProblem(accounts: number, videos: number, publishCount?: number | null): CountProblem {
  if (accounts <= 0) return 'noAccounts';
  if (videos <= 0) return 'noVideos';
  if (accounts > videos) return 'accountsOverVideos';
  if (publishCount && publishCount > videos) return 'publishOverVideos';
  return null;
}

/** How many videos the schedule can place: accounts × daily quantity × days. */
export function capacity(accounts: number, daily: number, days: number): number {
  return Math.max(0, accounts) * Math.max(0, daily || 0) * Math.max(0, days || 0);
}

/** How many time pickers a mode needs: specified one per daily slot, timed one, random none. */
export function timesNeeded(mode: TimeMode, daily: number): number {
  if (mode === 'specified') return Math.max(1, Math.min(PER_ACCOUNT_DAY, daily || 1));
  if (mode === 'timed') return 1;
  return 0;
}

export type TimesProblem = 'missing' | 'repeated' | null;

export function timesProblem(mode: TimeMode, daily: number, times: ReadonlyArray<string | null | undefined>): TimesProblem {
  const need = timesNeeded(mode, daily);
  if (!need) return null;
  const given = times.slice(0, need).filter((t): t is string => Boolean(t));
  if (given.length < need) return 'missing';
  if (new Set(given).size !== given.length) return 'repeated';
  return null;
}

// ---- the form and the request

export type VideoKey = `${'v' | 'm'}:${number}`;

export const videoKey = (source: 'library' | 'material', id: number): VideoKey => `${source === 'material' ? 'm' : 'v'}:${id}`;

export function splitVideoKeys(keys: readonly string[]): { video_ids: number[]; material_ids: number[] } {
  const video_ids: number[] = [];
  const material_ids: number[] = [];
  for (const k of keys) {
    const [kind, raw] = k.split(':');
    const id = Number(raw);
    if (!Number.isFinite(id)) continue;
    if (kind === 'm') material_ids.push(id);
    else video_ids.push(id);
  }
  return { video_ids, material_ids };
}

export interface TaskFormValues {
  name: string;
  platform: TaskPlatform;
  account_ids: number[];
  /** Videos, or one image note (图文) posted on each account. */
  kind: TaskKind;
  video_keys: string[];
  /** An image note's library pictures, in order. */
  image_ids: number[];
  /** An image note's frames: a finished video and how many frames of it. */
  frames_video?: number | null;
  frames_count?: number | null;
  titles: string;
  topics: string[];
  top_comments?: string;
  at_users?: string[];
  mount_type: MountType;
  /** The posts' content declaration (`auto`: by the videos, a one-touch video is AI-generated). */
  declaration: ContentDeclaration;
  province?: string;
  city?: string;
  merchant_abbr?: string;
  poi_id?: string;
  poi_name?: string;
  poi_address?: string;
  mini_app_id?: string;
  mini_app_title?: string;
  mini_app_url?: string;
  official_title?: string;
  official_url?: string;
  product_id?: string;
  time_mode: TimeMode;
  start_date: Dayjs;
  daily_quantity: number;
  days: number;
  times?: Array<Dayjs | null | undefined>;
  publish_count?: number | null;
  /** Refuse the task when a post's duplicate risk against its account is high (else a warning). */
  refuse_duplicates?: boolean;
}

/** Mount fields a mount type needs. */
export const MOUNT_FIELDS: Record<MountType, Array<keyof TaskFormValues>> = {
  none: [],
  poi: ['poi_id'],
  mini_program: ['mini_app_id', 'mini_app_title', 'mini_app_url'],
  official: ['official_title', 'official_url'],
  product: ['product_id'],
};

/** A new task's values; the start date is today in the merchants' time zone, not the browser's. */
export function emptyTaskForm(today: Dayjs = merchantToday()): TaskFormValues {
  return {
    name: '',
    platform: 'dy',
    account_ids: [],
    kind: 'video',
    video_keys: [],
    image_ids: [],
    frames_video: null,
    frames_count: null,
    titles: '',
    topics: [],
    top_comments: '',
    at_users: [],
    mount_type: 'none',
    declaration: 'auto',
    time_mode: 'random',
    start_date: today.startOf('day'),
    daily_quantity: 1,
    days: 7,
    times: [],
    publish_count: null,
    refuse_duplicates: false,
  };
}

const text = (v: string | null | undefined) => (v ?? '').trim();

/** The contract's TaskReq from the form's values (mount fields of other mount types are sent empty). */
export function toTaskReq(v: TaskFormValues, preview = false): TaskReq {
  const mount = v.mount_type ?? 'none';
  const keep = new Set<string>(MOUNT_FIELDS[mount] as string[]);
  if (mount === 'poi') ['poi_name', 'poi_address'].forEach((k) => keep.add(k));
  const m = (k: keyof TaskFormValues) => (keep.has(k) ? text(v[k] as string | undefined) : '');
  const need = timesNeeded(v.time_mode, v.daily_quantity);
  const times = (v.times ?? [])
    .slice(0, need)
    .filter((t): t is Dayjs => Boolean(t))
    .map((t) => t.format('HH:mm'));
  const req: TaskReq = {
    name: text(v.name),
    titles: joinTitles(splitTitles(v.titles)),
    topics: (v.topics ?? []).map((s) => s.replace(/^#/, '').trim()).filter(Boolean),
    top_comments: commentLines(v.top_comments).join('\n'),
    at_users: v.at_users ?? [],
    mount_type: mount,
    declaration: v.declaration ?? 'auto',
    province: text(v.province),
    city: text(v.city),
    merchant_abbr: text(v.merchant_abbr),
    poi_id: m('poi_id'),
    poi_name: m('poi_name'),
    poi_address: m('poi_address'),
    mini_app_id: m('mini_app_id'),
    mini_app_title: m('mini_app_title'),
    mini_app_url: m('mini_app_url'),
    official_title: m('official_title'),
    official_url: m('official_url'),
    product_id: m('product_id'),
    time_mode: v.time_mode,
    start_date: dayjs(v.start_date).format('YYYY-MM-DD'),
    daily_quantity: v.daily_quantity,
    days: v.days,
    times,
    account_ids: [...(v.account_ids ?? [])],
    ...(v.kind === 'image_note' ? { kind: 'image_note' as const, video_ids: [], material_ids: [], image_ids: [...(v.image_ids ?? [])], ...noteFrames(v) } : splitVideoKeys(v.video_keys ?? [])),
  };
  if (v.publish_count) req.publish_count = v.publish_count;
  if (v.refuse_duplicates) req.refuse_duplicates = true;
  if (preview) req.preview = true;
  return req;
}

// ---- image notes (图文)

/** The pictures of an image note: 1–18 (the server's `domain::matrix::notes`). */
export const NOTE_IMAGES_MIN = limits.matrix.NOTE_IMAGES_MIN;
export const NOTE_IMAGES_MAX = limits.matrix.NOTE_IMAGES_MAX;
/** Platforms whose accounts can post an image note (Douyin's open API, Xiaohongshu's console). */
export const NOTE_PLATFORMS: ReadonlyArray<TaskPlatform> = ['dy', 'xhs', 'mixed'];

function noteFrames(v: TaskFormValues): { frames?: { video_id: number; count: number } } {
  return v.frames_video && v.frames_count ? { frames: { video_id: v.frames_video, count: v.frames_count } } : {};
}

/** How many pictures a note's form holds: library pictures plus frames. */
export function noteCount(v: Pick<TaskFormValues, 'image_ids' | 'frames_video' | 'frames_count'>): number {
  return (v.image_ids ?? []).length + (v.frames_video && v.frames_count ? v.frames_count : 0);
}

export type NoteProblem = 'noteEmpty' | 'noteTooMany' | null;

export function noteProblem(count: number): NoteProblem {
  if (count < NOTE_IMAGES_MIN) return 'noteEmpty';
  if (count > NOTE_IMAGES_MAX) return 'noteTooMany';
  return null;
}

/** The form field a server 422 `data.field` names. */
export function formFieldOf(field: string): keyof TaskFormValues | string {
  const f = field.replace(/\[\d+\]$/, '').replace(/\.\d+$/, '');
  if (f === 'video_ids' || f === 'material_ids' || f === 'videos') return 'video_keys';
  if (f === 'accounts') return 'account_ids';
  if (f === 'frames' || f === 'kind') return 'image_ids';
  return f;
}

/** Which step of the task form holds a field (0 accounts, 1 videos, 2 content, 3 schedule). */
export function stepOf(field: string): number {
  const f = formFieldOf(field);
  if (f === 'name' || f === 'platform' || f === 'account_ids') return 0;
  if (f === 'video_keys' || f === 'image_ids') return 1;
  if (['time_mode', 'start_date', 'daily_quantity', 'days', 'times', 'publish_count', 'refuse_duplicates'].includes(f)) return 3;
  return 2;
}

/**
 * Whether the server accepts `action` on a row now: rows carry the actions they offer (`Task.actions`,
 * `Item.actions`, computed by the server from the row's state by the rule it enforces), so no page decides
 * that from a state itself.
 */
export function allows<A extends string>(row: { actions: ReadonlyArray<{ action: A; enabled: boolean }> } | null | undefined, action: A): boolean {
  return Boolean(row?.actions.some((o) => o.action === action && o.enabled));
}

/** A review is overdue when it is still under review past its due time. */
export function isOverdue(row: { review_state: string; review_due_at: number | null; overdue?: boolean }, now = Date.now()): boolean {
  if (row.overdue !== undefined) return row.overdue && row.review_state === 'reviewing';
  return row.review_state === 'reviewing' && Boolean(row.review_due_at) && (row.review_due_at as number) < now;
}

/** The task detail polls while an item publishes or is (or was just) due within this window. */
export const SOON_MS = 5 * 60_000;

export function needsPolling(items: ReadonlyArray<{ state: ItemState; scheduled_at: number | null; review_state?: string }>, now = Date.now()): boolean {
  return items.some(
    (i) =>
      i.state === 'publishing' ||
      (i.state === 'to_release' &&
        i.review_state !== 'rejected' &&
        i.review_state !== 'reviewing' &&
        i.scheduled_at !== null &&
        Math.abs(i.scheduled_at - now) <= SOON_MS),
  );
}

/** A proxy URL as the server takes it (domain::matrix::proxy): http(s) with optional credentials, or socks5. */
export const PROXY_PATTERN = /^\s*(?:(?:https?):\/\/(?:[^@\s/]+@)?|socks5:\/\/)[A-Za-z0-9.\-[\]:]+:(?:[1-9]\d{0,4})\/?\s*$/i;
