import type { TFunction } from 'i18next';
import { dateRangeField, intField, switchField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** Filterable fields of /system/merchant/index (docs/api-lists.md). */
export function merchantFilterFields(t: TFunction): FilterField[] {
  return [
    textField('name', t('merchant.name'), { selected: true }),
    textField('username', t('merchant.username')),
    textField('mobile', t('merchant.mobile')),
    switchField('status', t('common:status'), 'enabled'),
    intField('points', t('merchant.points')),
    dateRangeField('created_at', t('common:createdAt')),
    dateRangeField('vip_expires_at', t('merchant.vip')),
  ];
}
