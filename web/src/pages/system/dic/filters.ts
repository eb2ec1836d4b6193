import type { TFunction } from 'i18next';
import { dateRangeField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** Filterable fields of /system/dic/index (docs/api-lists.md): name, title (text); updated_at (date). */
export function dicFilterFields(t: TFunction): FilterField[] {
  return [textField('name', t('dic.name'), { selected: true }), textField('title', t('dic.title')), dateRangeField('updated_at', t('dic.updatedAt'))];
}
