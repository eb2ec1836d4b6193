import type { TFunction } from 'i18next';
import { dateRangeField, dictField, intField, tagsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** Filterable fields of /system/tasks/index (docs/api-lists.md). `kind` has no dictionary: typed tags. */
export function taskFilterFields(t: TFunction): FilterField[] {
  return [
    dictField('state', t('tasks.state'), 'job_state', { multiple: true, selected: true }),
    tagsField('kind', t('tasks.kind')),
    intField('attempts', t('tasks.attempts')),
    intField('merchant_id', t('tasks.merchant')),
    textField('last_error', t('tasks.lastError')),
    dateRangeField('run_at', t('tasks.runAt')),
    dateRangeField('created_at', t('common:createdAt')),
    dateRangeField('updated_at', t('tasks.updatedAt')),
  ];
}
