import type { AppRoute } from '../types';

/** activities area (docs/api-activities.md): lottery activities, their draw log and the coupon desk. */
const routes: AppRoute[] = [
  {
    path: '/Events',
    meta: { title: 'menu.events', icon: 'GiftOutlined', permission: 'task/merchant_forward_task_activities/*' },
    load: () => import('@/pages/activities/events'),
  },
];

export default routes;
