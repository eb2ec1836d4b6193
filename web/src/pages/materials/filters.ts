import type { TFunction } from 'i18next';
import { dateRangeField, intField, optionsField, tagsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/**
 * Filterable fields of the material lists (docs/api-materials.md: name, original_name, kind, state,
 * group_id, classify_id, file_type_id, size, duration_ms, width, height, created_at). The group and the
 * category are chosen in each page's left pane, so they are not offered again in the drawer.
 */
const stateField = (t: TFunction) =>
  optionsField(
    'state',
    t('materials:columns.state'),
    (['processing', 'ready', 'failed'] as const).map((s) => ({ value: s, label: t(`materials:state.${s}`) })),
    { multiple: true },
  );

const common = (t: TFunction) => ({
  name: textField('name', t('materials:columns.name'), { selected: true }),
  original: textField('original_name', t('materials:columns.originalName')),
  size: intField('size', t('materials:filters.sizeBytes')),
  duration: intField('duration_ms', t('materials:filters.durationMs')),
  width: intField('width', t('materials:filters.width')),
  height: intField('height', t('materials:filters.height')),
  created: dateRangeField('created_at', t('common:createdAt')),
});

/** /video: clips and images of the chosen shot group. */
export function clipFilterFields(t: TFunction): FilterField[] {
  const c = common(t);
  const kinds = (['video', 'image'] as const).map((k) => ({ value: k, label: t(`materials:kinds.${k}`) }));
  return [c.name, c.original, optionsField('kind', t('materials:columns.kind'), kinds, { multiple: true }), stateField(t), c.duration, c.width, c.height, c.size, c.created];
}

/** /speak: voice-over files. */
export function voiceFilterFields(t: TFunction): FilterField[] {
  const c = common(t);
  return [c.name, c.original, stateField(t), c.duration, c.size, c.created];
}

/** /music: my music (the category is the left pane). */
export function musicFilterFields(t: TFunction): FilterField[] {
  const c = common(t);
  return [c.name, c.original, stateField(t), c.duration, c.size, c.created];
}

/** /image: images (the category is the left pane). */
export function imageFilterFields(t: TFunction): FilterField[] {
  const c = common(t);
  return [c.name, c.original, c.width, c.height, c.size, c.created];
}

/** /font: fonts. */
export function fontFilterFields(t: TFunction): FilterField[] {
  const c = common(t);
  return [c.name, c.original, c.size, c.created];
}

/** The built-in music set (system_music_index, /system/music/index): name, category, duration_ms, created_at. */
export function systemMusicFilterFields(t: TFunction): FilterField[] {
  return [
    textField('name', t('materials:columns.name'), { selected: true }),
    tagsField('category', t('materials:columns.category')),
    intField('duration_ms', t('materials:filters.durationMs')),
    dateRangeField('created_at', t('common:createdAt')),
  ];
}
