/** Filter drawer fields of the SEO lists (docs/api-seo.md). */
import type { TFunction } from 'i18next';
import { dateRangeField, intField, optionsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';
import { PLATFORMS } from './rules';

const platformField = (t: TFunction) => optionsField('platform', t('seo:word.platform'), PLATFORMS.map((p) => ({ value: p, label: t(`seo:platform.${p}`) })));

/** Collected words: word (text), platform (text), created_at (date). */
export function collectedFilterFields(t: TFunction): FilterField[] {
  return [textField('word', t('seo:word.word'), { selected: true }), platformField(t), dateRangeField('created_at', t('seo:word.collectedAt'))];
}

/** Saved titles: title (text), category_id (int), created_at (date). */
export function titleFilterFields(t: TFunction, categories: { value: number; label: string }[]): FilterField[] {
  return [
    textField('title', t('seo:title.title'), { selected: true }),
    categories.length ? optionsField('category_id', t('seo:title.category'), categories) : intField('category_id', t('seo:title.category')),
    dateRangeField('created_at', t('common:createdAt')),
  ];
}

/** Benchmark accounts: nickname (text), platform (text). */
export function benchmarkFilterFields(t: TFunction): FilterField[] {
  return [textField('nickname', t('seo:bench.nickname'), { selected: true }), platformField(t)];
}

/** Lexicon words and built-in keywords: word (text). The kind or the category is the page's own choice. */
export function wordFilterFields(t: TFunction): FilterField[] {
  return [textField('word', t('seo:word.word'), { selected: true })];
}
