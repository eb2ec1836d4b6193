import type { AppRoute } from '../types';

/** editing area (DESIGN §4): quick mix and the finished-video library. */
const routes: AppRoute[] = [
  {
    path: '/normal_mode',
    meta: { title: 'menu.normalMode', icon: 'ScissorOutlined', permission: 'clip/merchant_much_clip/*' },
    load: () => import('@/pages/clip/normalMode'),
  },
  {
    path: '/piece_rep',
    meta: { title: 'menu.pieceRep', icon: 'PlaySquareOutlined', permission: 'clip/merchant_video_library/*' },
    load: () => import('@/pages/clip/pieceRep'),
  },
];

export default routes;
