import type { AppRoute } from '../types';

/** nfc area (docs/api-activities.md "NFC tap-to-post"): the tags, their titles and figures. */
const routes: AppRoute[] = [
  {
    path: '/nfc',
    meta: { title: 'menu.nfc', icon: 'WifiOutlined', permission: 'nfc/index/*' },
    load: () => import('@/pages/nfc'),
  },
];

export default routes;
