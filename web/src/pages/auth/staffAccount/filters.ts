import type { TFunction } from 'i18next';
import { dateRangeField, switchField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

/** Filterable fields of /user.merchant_user_sub/list (docs/api-lists.md). */
export function staffFilterFields(t: TFunction): FilterField[] {
  return [
    textField('username', t('staff.username'), { selected: true }),
    textField('nickname', t('staff.nickname')),
    textField('mobile', t('login.mobile')),
    switchField('status', t('common:status'), 'enabled'),
    dateRangeField('created_at', t('common:createdAt')),
    dateRangeField('last_login_at', t('staff.lastLogin')),
  ];
}
