import type { TFunction } from 'i18next';
import { dateRangeField, dictField, intField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** The dictionary of job kinds: the server answers it from its list of kinds, it is never stored. */
export const JOB_KIND_DICT = 'job_kind';

/** Filterable fields of /system/tasks/index (docs/api-lists.md). `job_kind` is served from the server's job kinds. */
export function taskFilterFields(t: TFunction): FilterField[] {
  return [
    dictField('state', t('tasks.state'), 'job_state', { multiple: true, selected: true }),
    dictField('kind', t('tasks.kind'), JOB_KIND_DICT, { multiple: true }),
    intField('attempts', t('tasks.attempts')),
    intField('merchant_id', t('tasks.merchant')),
    textField('last_error', t('tasks.lastError')),
    dateRangeField('run_at', t('tasks.runAt')),
    dateRangeField('created_at', t('common:createdAt')),
    dateRangeField('updated_at', t('tasks.updatedAt')),
  ];
}
