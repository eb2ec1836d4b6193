import type { AppRoute } from '../types';

/**
 * Engagement (docs/api-engagement.md): comments of every account and keyword auto-reply under Matrix,
 * leads under Private messages. `/clue_assign` is the leads page with every lead and assigning by hand.
 * Private messages: the DY workbench, which accounts may message, new-lead notices on WeChat ("抖微"),
 * quick replies and first-message rules.
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
  {
    path: '/private_message',
    meta: { title: 'menu.privateMessage', icon: 'CustomerServiceOutlined', permission: 'msg/merchant_private_msg/index' },
    load: () => import('@/pages/engagement/privateMessage'),
  },
  {
    path: '/private_auth',
    meta: { title: 'menu.privateAuth', icon: 'IdcardOutlined', permission: 'msg/merchant_private_msg/accounts' },
    load: () => import('@/pages/engagement/privateAuth'),
  },
  {
    path: '/dou_wei',
    meta: { title: 'menu.douWei', icon: 'NotificationOutlined', permission: 'wechat/MerchantWechat/info' },
    load: () => import('@/pages/engagement/douWei'),
  },
  {
    path: '/chat_reply',
    meta: { title: 'menu.chatReply', icon: 'MessageOutlined', permission: 'msg/merchant_private_msg/quick_reply_list' },
    load: () => import('@/pages/engagement/chatReply'),
  },
];

export default routes;
