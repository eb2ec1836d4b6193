import type { AppRoute } from '../types';

/**
 * Engagement (docs/api-engagement.md): comments of every account and keyword auto-reply under Matrix,
 * leads under Private messages. `/clue_assign` is the leads page with every lead and assigning by hand.
 */
const routes: AppRoute[] = [
  {
    path: '/comment_management',
    meta: { title: 'menu.commentManagement', icon: 'CommentOutlined', permission: 'task/merchant_comment/*' },
    load: () => import('@/pages/engagement/comments'),
  },
  {
    path: '/comment_reply',
    meta: { title: 'menu.commentReply', icon: 'MessageOutlined', permission: 'task/merchant_comment_keyword/*' },
    load: () => import('@/pages/engagement/autoReply'),
  },
  {
    path: '/clue_management',
    meta: { title: 'menu.clueManagement', icon: 'ContactsOutlined', permission: 'msg/merchant_clue/index' },
    load: () => import('@/pages/engagement/leads'),
  },
  {
    path: '/clue_assign',
    meta: { title: 'menu.clueAssign', icon: 'TeamOutlined', permission: 'msg/merchant_clue/*' },
    load: () => import('@/pages/engagement/leads'),
  },
];

export default routes;
