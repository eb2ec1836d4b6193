/**
 * The NFC tag's client-side rules (docs/api-activities.md "NFC tap-to-post") and the mapping from the tag
 * form to the contract's TagReq. Pure functions only; the server checks the same rules again.
 */
import { limits } from '@/api/limits';
import type { PoolKind, Tag, TagPlatform, TagReq } from '@/api/nfc/types';

export const TAG_NAME_MAX = limits.nfc.TAG_NAME_MAX;
export const TITLE_MAX = limits.nfc.TITLE_MAX;
/** Titles added at once. */
export const TITLES_PER_ADD = limits.nfc.TITLES_PER_ADD;
export const TOPICS_MAX = 5;
/** Fewer videos left than this: the pool is running low. */
export const POOL_LOW = 5;
export const PLATFORMS: TagPlatform[] = ['dy'];
export const POOL_KINDS: PoolKind[] = ['project', 'group'];

/** Characters as the server counts them (code points: an emoji is one). */
export function charCount(text: string | null | undefined): number {
  return Array.from(text ?? '').length;
}

// ---- titles, one per line

export interface TitleLine {
  /** 1-based line number in the text as typed. */
  line: number;
  title: string;
  length: number;
}

/** The titles typed one per line: trimmed, blank lines dropped, each with its line number. */
export function titleLines(text: string | null | undefined): TitleLine[] {
  const out: TitleLine[] = [];
  (text ?? '').split(/\r?\n/).forEach((raw, i) => {
    const title = raw.trim();
    if (title) out.push({ line: i + 1, title, length: charCount(title) });
  });
  return out;
}

/** The lines longer than `max` characters. */
export function longTitleLines(text: string | null | undefined, max = TITLE_MAX): TitleLine[] {
  return titleLines(text).filter((l) => l.length > max);
}

// ---- pools

export type PoolLevel = 'empty' | 'low' | 'ok';

/** No video left, fewer than 5 left, or enough. */
export function poolLevel(left: number): PoolLevel {
  if (left <= 0) return 'empty';
  if (left < POOL_LOW) return 'low';
  return 'ok';
}

// ---- the tag

export interface TagFormValues {
  name: string;
  platform: TagPlatform;
  pool_kind: PoolKind;
  pool_id?: number;
  /** 0 = none. */
  activity_id: number;
  topics: string[];
  enabled: boolean;
}

export function emptyTagForm(): TagFormValues {
  return { name: '', platform: 'dy', pool_kind: 'project', pool_id: undefined, activity_id: 0, topics: [], enabled: true };
}

export function tagToForm(tag: Tag): TagFormValues {
  return {
    name: tag.name,
    platform: tag.platform,
    pool_kind: tag.pool_kind,
    pool_id: tag.pool_id,
    activity_id: tag.activity_id ?? 0,
    topics: [...(tag.topics ?? [])],
    enabled: tag.enabled,
  };
}

/** Topics as sent: without a leading '#', trimmed, no blanks or repeats. */
export function cleanTopics(topics: readonly string[] | null | undefined): string[] {
  return [...new Set((topics ?? []).map((s) => s.replace(/^#+/, '').trim()).filter(Boolean))];
}

export function toTagReq(v: TagFormValues): TagReq {
  return {
    name: (v.name ?? '').trim(),
    platform: v.platform ?? 'dy',
    pool_kind: v.pool_kind,
    pool_id: v.pool_id ?? 0,
    activity_id: v.activity_id ?? 0,
    topics: cleanTopics(v.topics),
    enabled: Boolean(v.enabled),
  };
}

/** The request of a tag as it is, with `enabled` switched (the list's switch). */
export function withEnabled(tag: Tag, enabled: boolean): TagReq {
  return { ...toTagReq(tagToForm(tag)), enabled };
}
