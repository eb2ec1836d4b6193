/** Filter drawer fields of the NFC tags (docs/api-activities.md: name (text), created_at (date)). */
import type { TFunction } from 'i18next';
import { dateRangeField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

export function tagFilterFields(t: TFunction): FilterField[] {
  return [textField('name', t('nfc:tag.name'), { selected: true }), dateRangeField('created_at', t('common:createdAt'))];
}
