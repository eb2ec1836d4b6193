/** Filter drawer fields of the matrix lists (docs/api-matrix.md, list-query engine fields). */
import type { TFunction } from 'i18next';
import { PLATFORMS } from '@/api/matrix';
import { dateRangeField, intField, optionsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';
import { ITEM_STATES } from './rules';

const platformOptions = (t: TFunction, mixed = false) =>
  [...PLATFORMS, ...(mixed ? (['mixed'] as const) : [])].map((p) => ({ value: p, label: t(`matrix:platform.${p}`) }));

/** task.merchant_group_user/index: platform, status, nickname, remarks, group_id, created_at, expires_at. */
export function accountFilterFields(t: TFunction): FilterField[] {
  return [
    textField('nickname', t('matrix:account.nickname'), { selected: true }),
    optionsField('platform', t('matrix:account.platform'), platformOptions(t)),
    optionsField(
      'status',
      t('matrix:account.status'),
      (['active', 'expiring', 'expired'] as const).map((s) => ({ value: s, label: t(`matrix:accountStatus.${s}`) })),
    ),
    intField('group_id', t('matrix:account.groupId')),
    textField('remarks', t('matrix:account.remarks')),
    dateRangeField('expires_at', t('matrix:account.expiresAt')),
    dateRangeField('created_at', t('common:createdAt')),
  ];
}

/** task.merchant_matrix_group/index: name. */
export function groupFilterFields(t: TFunction): FilterField[] {
  return [textField('name', t('matrix:group.name'), { selected: true })];
}

const reviewOptions = (t: TFunction) =>
  (['reviewing', 'approved', 'rejected'] as const).map((s) => ({ value: s, label: t(`matrix:review.${s}`) }));

/** task.merchant_forward_task/index: name, platform, review_state, created_at. */
export function taskFilterFields(t: TFunction): FilterField[] {
  return [
    textField('name', t('matrix:task.name'), { selected: true }),
    optionsField('platform', t('matrix:task.platform'), platformOptions(t, true)),
    optionsField('review_state', t('matrix:task.review'), reviewOptions(t)),
    dateRangeField('created_at', t('common:createdAt')),
  ];
}

/** forward_video_release: account_id, state, review_state, scheduled_at. */
export function itemFilterFields(t: TFunction): FilterField[] {
  return [
    optionsField(
      'state',
      t('matrix:item.state'),
      ITEM_STATES.map((s) => ({ value: s, label: t(`matrix:itemState.${s}`) })),
      { selected: true },
    ),
    intField('account_id', t('matrix:item.accountId')),
    optionsField('review_state', t('matrix:task.review'), reviewOptions(t)),
    dateRangeField('scheduled_at', t('matrix:item.scheduledAt')),
  ];
}

/** /system/audit/index: review_state, merchant_name, name, created_at. */
export function auditFilterFields(t: TFunction): FilterField[] {
  return [
    optionsField('review_state', t('matrix:task.review'), reviewOptions(t), { selected: true }),
    textField('merchant_name', t('matrix:audit.merchant')),
    textField('name', t('matrix:task.name')),
    dateRangeField('created_at', t('matrix:audit.submitted')),
  ];
}
