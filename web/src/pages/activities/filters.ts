/**
 * Filter drawer fields of the activity lists (docs/api-activities.md, list-query engine fields). An
 * activity's and a coupon's `state` depend on the clock, so they are plain parameters (the toolbars'
 * pickers), not drawer filters; so is the activity of the draw log and the coupons.
 */
import type { TFunction } from 'i18next';
import { dateRangeField, optionsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';

export const ACTIVITY_STATES = ['upcoming', 'running', 'ended'] as const;
export const COUPON_STATES = ['issued', 'redeemed', 'expired'] as const;

/** task.merchant_forward_task_activities/index: name, created_at. */
export function activityFilterFields(t: TFunction): FilterField[] {
  return [textField('name', t('activities:activity.name'), { selected: true }), dateRangeField('created_at', t('common:createdAt'))];
}

/** get_task_luck_draw_log: won, person, created_at. */
export function drawFilterFields(t: TFunction): FilterField[] {
  return [
    // a switch field ('1' / '0') offered as won / not won
    optionsField(
      'won',
      t('activities:draw.result'),
      [
        { value: '1', label: t('activities:draw.won') },
        { value: '0', label: t('activities:draw.lost') },
      ],
      { selected: true },
    ),
    textField('person', t('activities:draw.person')),
    dateRangeField('created_at', t('activities:draw.at')),
  ];
}

/** coupons: code, issued_at. */
export function couponFilterFields(t: TFunction): FilterField[] {
  return [textField('code', t('activities:coupon.code'), { selected: true }), dateRangeField('issued_at', t('activities:coupon.issuedAt'))];
}
