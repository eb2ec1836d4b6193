import type { AppRoute } from '../types';

/** editing area (DESIGN §4): quick mix and the finished-video library. */
const routes: AppRoute[] = [
  {
    path: '/batch_slice',
    meta: { title: 'menu.batchSlice', icon: 'ScissorOutlined', permission: 'clip/merchant_visual_editing/*' },
    load: () => import('@/pages/clip/batchSlice'),
  },
  {
    path: '/normal_mode',
    meta: { title: 'menu.normalMode', icon: 'ScissorOutlined', permission: 'clip/merchant_much_clip/*' },
    load: () => import('@/pages/clip/normalMode'),
  },
  {
    path: '/high_modeVisualization_clip',
    meta: { title: 'menu.highMode', icon: 'ControlOutlined', permission: 'clip/merchant_senior_clip/*' },
    load: () => import('@/pages/clip/highMode'),
  },
  {
    path: '/piece_rep',
    meta: { title: 'menu.pieceRep', icon: 'PlaySquareOutlined', permission: 'clip/merchant_video_library/*' },
    load: () => import('@/pages/clip/pieceRep'),
  },
];

export default routes;
