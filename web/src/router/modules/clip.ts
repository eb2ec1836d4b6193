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
  // Clip templates (zh table; SPEC §2 "/template_clip (zh, in testing)").
  {
    path: '/template_clip',
    meta: { title: 'menu.templateClip', icon: 'AppstoreOutlined', permission: 'clip/merchant_ai_clip_template/*', lang: 'zh-CN' },
    load: () => import('@/pages/clip/templateClip'),
  },
  // One-touch video: /newAiHome in the zh table, /oneKeyVideoNew (the same page) in the English one.
  {
    path: '/newAiHome',
    meta: { title: 'menu.newAiHome', icon: 'ExperimentOutlined', permission: 'media/merchant_key_slice/*', lang: 'zh-CN' },
    load: () => import('@/pages/clip/newAiHome'),
  },
  {
    path: '/oneKeyVideoNew',
    meta: { title: 'menu.newAiHome', icon: 'ExperimentOutlined', permission: 'media/merchant_key_slice/*', lang: 'en', menuPath: '/newAiHome' },
    load: () => import('@/pages/clip/newAiHome'),
  },
  // AI smart editing (Administrator, internal testing): the operator's calls, `/system/intellect/*`.
  {
    path: '/intellect',
    meta: { title: 'menu.intellect', icon: 'ScissorOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/clip/intellect'),
  },
  {
    path: '/piece_rep',
    meta: { title: 'menu.pieceRep', icon: 'PlaySquareOutlined', permission: 'clip/merchant_video_library/*' },
    load: () => import('@/pages/clip/pieceRep'),
  },
];

export default routes;
