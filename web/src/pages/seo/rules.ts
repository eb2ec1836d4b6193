/**
 * The SEO pages' client-side rules (docs/api-seo.md) and small pure helpers. The server checks the
 * same limits again.
 */
import { limits } from '@/api/limits';
import type { ExcavateWord, GenerateReq, Keyword, LexKind, SeoPlatform, TitleLang } from '@/api/seo/types';
import { charCount } from '@/pages/matrix/rules';

export { charCount };

export const PLATFORMS: SeoPlatform[] = ['dy', 'ks'];
/** The platforms benchmark accounts are watched on (the server's `DyOnly`: Douyin only). */
export const BENCH_PLATFORMS = ['dy'] as const;
export const LEX_KINDS: LexKind[] = ['brand', 'product', 'region', 'longtail', 'banned', 'stop'];
/** A seed word, a lexicon word, a category keyword. */
export const WORD_MAX = limits.seo.WORD_MAX;
/** Words added at once. */
export const WORDS_PER_ADD = limits.seo.WORDS_PER_ADD;
/** A release task's title. */
export const TITLE_MAX = limits.seo.TITLE_MAX;
/** A clip's title. */
export const CLIP_TITLE_MAX = limits.seo.CLIP_TITLE_MAX;
export const MAX_CHARS_OPTIONS = [TITLE_MAX, CLIP_TITLE_MAX] as const;
export const COUNT_MAX = limits.seo.COUNT_MAX;
export const COUNT_DEFAULT = 20;
export const CATEGORY_NAME_MAX = limits.seo.CATEGORY_NAME_MAX;
/** Brand, product, region of the SEO profile. */
export const PROFILE_FIELD_MAX = limits.seo.PROFILE_FIELD_MAX;
export const DESCRIPTION_MAX = limits.seo.DESCRIPTION_MAX;

/** One word a line: trimmed, blank lines and repeats dropped. */
export function wordLines(text: string | null | undefined): string[] {
  return [...new Set((text ?? '').split(/\r?\n/).map((s) => s.trim()).filter(Boolean))];
}

/** The words longer than `max` characters. */
export function longWords(words: readonly string[], max = WORD_MAX): string[] {
  return words.filter((w) => charCount(w) > max);
}

/** Tags typed into a keyword box: trimmed, without a leading '#', no blanks or repeats. */
export function cleanWords(words: readonly string[] | null | undefined): string[] {
  return [...new Set((words ?? []).map((s) => s.replace(/^#+/, '').trim()).filter(Boolean))];
}

/** The change against 7 days ago as '+12%' / '-5%' / '0%'. */
export function changeText(change: number | null | undefined): string {
  const pct = Math.round((change ?? 0) * 100);
  return `${pct > 0 ? '+' : ''}${pct}%`;
}

/** The title engine's language for the console's. */
export function titleLang(consoleLang: string | undefined): TitleLang {
  return consoleLang?.startsWith('en') ? 'en' : 'zh';
}

export type ExcavateNode = ExcavateWord & { key: string; children?: ExcavateNode[] };

/**
 * The mined words as a tree: each first-level word with the second-level words whose parent it is. A
 * second-level word whose parent is not among the first level hangs at the top.
 */
export function excavateTree(rows: readonly ExcavateWord[]): ExcavateNode[] {
  const top = new Map<string, ExcavateNode>();
  for (const r of rows) if (r.depth === 1 && !top.has(r.word)) top.set(r.word, { ...r, key: r.word });
  const orphans: ExcavateNode[] = [];
  for (const r of rows) {
    if (r.depth !== 2) continue;
    const parent = top.get(r.parent);
    const node = { ...r, key: `${r.parent}/${r.word}` };
    if (parent) (parent.children ??= []).push(node);
    else orphans.push(node);
  }
  return [...top.values(), ...orphans];
}

/** Font sizes of word chips by weight, from `min` px (lightest) to `max` px (heaviest). */
export function chipSizes(words: readonly Keyword[], min = 12, max = 26): number[] {
  const weights = words.map((w) => w.weight);
  const lo = Math.min(...weights);
  const hi = Math.max(...weights);
  return weights.map((w) => (hi > lo ? Math.round(min + ((w - lo) / (hi - lo)) * (max - min)) : Math.round((min + max) / 2)));
}

// ---- titles from keywords

export interface GenerateValues {
  keywords: string[];
  text: string;
  category_id?: number;
  styles: string[];
  count: number;
  max_chars: number;
  lang: TitleLang;
}

export function emptyGenerateForm(lang: TitleLang, keywords: string[] = [], maxChars: number = TITLE_MAX): GenerateValues {
  return { keywords, text: '', category_id: undefined, styles: [], count: COUNT_DEFAULT, max_chars: maxChars, lang };
}

/** The contract's request: empty parts left out. */
export function toGenerateReq(v: GenerateValues): GenerateReq {
  const req: GenerateReq = { count: v.count || COUNT_DEFAULT, max_chars: v.max_chars || TITLE_MAX, lang: v.lang };
  const keywords = cleanWords(v.keywords);
  const text = (v.text ?? '').trim();
  if (keywords.length) req.keywords = keywords;
  if (text) req.text = text;
  if (v.category_id) req.category_id = v.category_id;
  if (v.styles?.length) req.styles = [...v.styles];
  return req;
}

/** A title's score as a percentage (the contract leaves the scale open: 0..1 or 0..100). */
export function scorePercent(score: number | null | undefined): number {
  const v = score ?? 0;
  return Math.max(0, Math.min(100, Math.round(v <= 1 ? v * 100 : v)));
}

/**
 * The text prompt put before generated text copied out as a block (GB 45438-2025 §5.1; the server's
 * `domain::clip::aigc::TEXT_LABEL`, docs/spec-decisions.md "AI-content labels").
 */
export const AI_TEXT_LABEL = '【本内容由AI生成】';

/** Generated lines as copied: the text prompt on the first line, then the lines. */
export const withAiLabel = (lines: string[]): string => [AI_TEXT_LABEL, ...lines].join('\n');
