import type { AppRoute } from '../types';

/** materials area (DESIGN §4): the material libraries, and the operator's built-in music set. */
const routes: AppRoute[] = [
  {
    path: '/video',
    meta: { title: 'menu.video', icon: 'VideoCameraOutlined', permission: 'media/merchant_much_resource/*' },
    load: () => import('@/pages/materials/video'),
  },
  {
    path: '/speak',
    meta: { title: 'menu.speak', icon: 'AudioOutlined', permission: 'bpdr/merchant_mediainfo/*' },
    load: () => import('@/pages/materials/speak'),
  },
  {
    path: '/music',
    meta: { title: 'menu.music', icon: 'CustomerServiceOutlined', permission: 'media/merchant_producing_upfile/*' },
    load: () => import('@/pages/materials/music'),
  },
  {
    path: '/image',
    meta: { title: 'menu.image', icon: 'PictureOutlined', permission: 'media/merchant_producing_upfile/*' },
    load: () => import('@/pages/materials/image'),
  },
  {
    path: '/font',
    meta: { title: 'menu.font', icon: 'FontSizeOutlined', permission: 'media/merchant_font_style/*' },
    load: () => import('@/pages/materials/font'),
  },
  {
    path: '/system/music',
    meta: { title: 'menu.systemMusic', icon: 'CustomerServiceOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/materials/systemMusic'),
  },
];

export default routes;
