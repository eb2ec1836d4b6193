import type { TFunction } from 'i18next';
import { dateRangeField, dictField, intField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** Filterable fields of /index/log and /system/log/index (docs/api-lists.md). */
export function logFilterFields(t: TFunction, withMerchant = false): FilterField[] {
  return [
    dateRangeField('created_at', t('log.time'), { selected: true }),
    dictField('result', t('log.result'), 'log_result'),
    textField('username', t('log.username')),
    textField('action', t('log.action')),
    dictField('method', t('log.method'), 'http_method'),
    textField('path', t('log.path')),
    intField('status', t('log.status')),
    textField('message', t('log.message')),
    textField('ip', 'IP'),
    ...(withMerchant ? [textField('merchant_name', t('log.merchant'))] : []),
  ];
}
