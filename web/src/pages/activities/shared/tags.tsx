/** State tags of the activity pages: an activity's state and a coupon's. */
import { Tag } from 'antd';
import type { ActivityState, CouponState } from '@/api/activities/types';
import { useActivitiesT } from '../i18n';

const ACTIVITY_COLORS: Record<ActivityState, string> = { upcoming: 'blue', running: 'green', ended: 'default' };
const COUPON_COLORS: Record<CouponState, string> = { issued: 'blue', redeemed: 'green', expired: 'default' };

export function ActivityStateTag({ state, testId }: { state: ActivityState; testId?: string }) {
  const { t } = useActivitiesT();
  return (
    <Tag color={ACTIVITY_COLORS[state] ?? 'default'} data-testid={testId} data-state={state}>
      {t(`state.${state}`, { defaultValue: state })}
    </Tag>
  );
}

export function CouponStateTag({ state, testId }: { state: CouponState; testId?: string }) {
  const { t } = useActivitiesT();
  return (
    <Tag color={COUPON_COLORS[state] ?? 'default'} data-testid={testId} data-state={state}>
      {t(`couponState.${state}`, { defaultValue: state })}
    </Tag>
  );
}
