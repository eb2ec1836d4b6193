import type { TFunction } from 'i18next';
import { dateRangeField, dictField, intField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** Filterable fields of the usage-record calls (docs/api-lists.md). */
export function usageFilterFields(t: TFunction): FilterField[] {
  return [
    dateRangeField('created_at', t('useRecord.time'), { selected: true }),
    dictField('kind', t('useRecord.kind'), 'points_kind', { multiple: true }),
    intField('change', t('useRecord.change')),
    intField('balance', t('useRecord.balance')),
    textField('reason', t('useRecord.reason')),
    textField('job_key', t('useRecord.jobKey')),
    textField('operator', t('useRecord.operator')),
  ];
}
