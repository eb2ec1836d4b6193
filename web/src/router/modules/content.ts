import type { AppRoute } from '../types';

/**
 * content area: the course pages (SPEC §2 "Courses (zh)": zh-CN routes, one component, the category
 * from the path; their reads are open to every signed-in user, the menus decide who sees the pages) and
 * the operator's content page.
 */
const course = (path: string, title: string, icon: AppRoute['meta']['icon']): AppRoute => ({
  path,
  meta: { title, icon, permission: 'index/getIndexCourseList/*', lang: 'zh-CN' },
  load: () => import('@/pages/content/courses'),
});

/** The hot-list pages (SPEC §2 "Other"): one component, the page from the path; each reads its own boards. */
const hot = (path: string, page: string, title: string, icon: AppRoute['meta']['icon']): AppRoute => ({
  path,
  meta: { title, icon, permission: `content/hot_list/${page}_index` },
  load: () => import('@/pages/content/hotlists'),
});

const routes: AppRoute[] = [
  course('/account', 'menu.courseAccount', 'IdcardOutlined'),
  course('/Popular', 'menu.coursePopular', 'FireOutlined'),
  course('/course', 'menu.courseGeneral', 'BookOutlined'),
  course('/shot_tutorial', 'menu.courseShot', 'CameraOutlined'),
  hot('/hotmusic', 'music', 'menu.hotMusic', 'CustomerServiceOutlined'),
  hot('/keywords', 'keywords', 'menu.hotKeywords', 'RiseOutlined'),
  hot('/hotvideo', 'video', 'menu.hotVideo', 'PlaySquareOutlined'),
  hot('/hottopic', 'topic', 'menu.hotTopic', 'NumberOutlined'),
  hot('/life', 'life', 'menu.hotLife', 'ShopOutlined'),
  hot('/doyen', 'doyen', 'menu.hotDoyen', 'CrownOutlined'),
  // Common routes (SPEC §2): /home and /code for every signed-in user; /visualIframe and /test are in the
  // zh-cn route table only.
  { path: '/home', meta: { title: 'menu.home', icon: 'HomeOutlined', hidden: true }, load: () => import('@/pages/content/home') },
  { path: '/code', meta: { title: 'menu.code', icon: 'QrcodeOutlined', hidden: true }, load: () => import('@/pages/content/code') },
  {
    path: '/visualIframe',
    meta: { title: 'menu.visualIframe', icon: 'DesktopOutlined', permission: 'index/getVideoLibraryIframeToken/*', lang: 'zh-CN' },
    load: () => import('@/pages/content/visualIframe'),
  },
  {
    path: '/test',
    meta: { title: 'menu.selfTest', icon: 'ExperimentOutlined', admin: true, permission: 'system/*/*', lang: 'zh-CN' },
    load: () => import('@/pages/content/selfTest'),
  },
  {
    path: '/system/content',
    meta: { title: 'menu.systemContent', icon: 'NotificationOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/content/system'),
  },
];

export default routes;
