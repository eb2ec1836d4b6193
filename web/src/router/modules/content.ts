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

const routes: AppRoute[] = [
  course('/account', 'menu.courseAccount', 'IdcardOutlined'),
  course('/Popular', 'menu.coursePopular', 'FireOutlined'),
  course('/course', 'menu.courseGeneral', 'BookOutlined'),
  course('/shot_tutorial', 'menu.courseShot', 'CameraOutlined'),
  {
    path: '/system/content',
    meta: { title: 'menu.systemContent', icon: 'NotificationOutlined', admin: true, permission: 'system/*/*' },
    load: () => import('@/pages/content/system'),
  },
];

export default routes;
