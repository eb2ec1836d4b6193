/**
 * Engagement (docs/api-engagement.md): comments of every account (`/task.merchant_comment/*`), keyword
 * auto-reply rules (`/task.merchant_comment_keyword/*`), leads (`/msg.merchant_clue/*`), private messages
 * (`/msg.merchant_private_msg/*`) and new-lead notices through WeChat (`/wechat.MerchantWechat/*`,
 * `/msg.wxgzh/*`). Lists are
 * read by DataTable through `engagementUrls`; calls whose 422 is shown at a form field are silent.
 */
import { api } from '../client';
import type {
  CommentAccount,
  Conversation,
  EngagementComment,
  Lead,
  LeadState,
  LeadNotice,
  LeadStaff,
  MessageAccount,
  PrivateMessage,
  PrivateSendReq,
  QuickReply,
  QuickReplyReq,
  Rule,
  RuleReq,
  SyncResult,
  WxConfig,
  WxConfigReq,
  WrittenRows,
  WxBindQr,
  WxStaff,
} from './types';

const CM = '/task.merchant_comment';
const KW = '/task.merchant_comment_keyword';
const CL = '/msg.merchant_clue';
const PM = '/msg.merchant_private_msg';
const WX = '/wechat.MerchantWechat';
const GZH = '/msg.wxgzh';

type Empty = Record<string, never>;

/** The area's query keys: a write marks the reads under them stale. */
export const engagementKeys = {
  all: ['engagement'] as const,
  quickReplies: ['engagement', 'quick-replies'] as const,
  /** Under `rules`: a rule saved on /comment_reply reloads the chat page's list. */
  messageRules: ['engagement', 'rules', 'message'] as const,
  comments: ['engagement', 'comments'] as const,
  commentAccounts: ['engagement', 'accounts'] as const,
  /** The comment and private-message keyword rules (one table). */
  rules: ['engagement', 'rules'] as const,
  leads: ['engagement', 'leads'] as const,
  leadStaff: ['engagement', 'lead-staff'] as const,
  pmAccounts: ['engagement', 'pm-accounts'] as const,
  conversations: ['engagement', 'conversations'] as const,
  thread: ['engagement', 'thread'] as const,
  wechat: ['engagement', 'wechat'] as const,
  wechatConfig: ['engagement', 'wechat', 'config'] as const,
  wechatStaff: ['engagement', 'wechat', 'staff'] as const,
  wechatLog: ['engagement', 'wechat', 'log'] as const,
};

export const engagementUrls = {
  comments: `${CM}/index`,
  commentsExport: `${CM}/export`,
  rules: `${KW}/index`,
  replyLog: `${KW}/log_list`,
  leads: `${CL}/index`,
  export: `${CL}/export`,
} as const;

/** The private-message rules (the chat page lists them beside the quick replies). */
export const fetchMessageRules = () => api.get(engagementUrls.rules, { channel: 'message', page: 1, limit: 100 });

export const fetchCommentAccounts = (): Promise<CommentAccount[]> => api.get(`${CM}/accounts`);
/** Silent: a refusal is shown at the reply field. */
export const replyComment = (id: number, text: string): Promise<EngagementComment> => api.post(`${CM}/reply`, { id, text }, { silent: true });
/** Suggested answers to a comment (the AI provider's or the built-in writer's); nothing is sent. */
export const suggestReplies = (id: number): Promise<WrittenRows> => api.post(`${CM}/suggest_replies`, { id });
export const setCommentStatus = (id: number, to: 'hide' | 'spam' | 'show'): Promise<EngagementComment> => api.post(`${CM}/${to}`, { id });
export const syncComments = (accountId?: number): Promise<SyncResult> => api.post(`${CM}/sync`, accountId ? { account_id: accountId } : {});

/** Add (no id) or edit. Silent: 422 at the field. */
export const saveRule = (req: RuleReq): Promise<Rule> => api.post(`${KW}/${req.id ? 'edit' : 'add'}`, req, { silent: true });
export const deleteRule = (id: number): Promise<Empty> => api.post(`${KW}/delete`, { id });

export const setLeadState = (id: number, state: LeadState): Promise<Lead> => api.post(`${CL}/state`, { id, state });
/** Silent: 422 at the field. */
export const addLeadNote = (id: number, note: string): Promise<Lead> => api.post(`${CL}/note`, { id, note }, { silent: true });
export const assignLead = (id: number, assigneeId: number): Promise<Lead> => api.post(`${CL}/assign`, { id, assignee_id: assigneeId });
export const fetchLeadStaff = (): Promise<LeadStaff[]> => api.get(`${CL}/staff_list`);

/** Downloads the leads the caller sees (`leads.xlsx` unless the server names the file). */

export interface ConversationPage {
  rows: Conversation[];
  total: number;
}
/** The conversations (one account's when `accountId` is given), newest message first. */
export const fetchConversations = (accountId: number, page = 1, limit = 50): Promise<ConversationPage> =>
  api.get(`${PM}/index`, { account_id: accountId || undefined, page, limit });
export const fetchThread = (accountId: number, conversationId: string): Promise<PrivateMessage[]> =>
  api.get(`${PM}/thread`, { account_id: accountId, conversation_id: conversationId });
/** Silent: a refusal (too long, the platform's limits) is shown at the text field. */
export const sendPrivateMessage = (req: PrivateSendReq): Promise<PrivateMessage[]> => api.post(`${PM}/send`, req, { silent: true });
export const fetchMessageAccounts = (): Promise<MessageAccount[]> => api.get(`${PM}/accounts`);
export const fetchQuickReplies = (): Promise<QuickReply[]> => api.get(`${PM}/quick_reply_list`);
/** Add (id 0) or edit. Silent: 422 at the field. */
export const saveQuickReply = (req: QuickReplyReq): Promise<QuickReply[]> => api.post(`${PM}/quick_reply_save`, req, { silent: true });
export const deleteQuickReply = (id: number): Promise<Empty> => api.post(`${PM}/quick_reply_delete`, { id });

export const fetchWxConfig = (): Promise<WxConfig> => api.get(`${WX}/info`);
/** Silent: 422 at the field. */
export const saveWxConfig = (req: WxConfigReq): Promise<Empty> => api.post(`${WX}/save`, req, { silent: true });
export const fetchWxStaff = (): Promise<WxStaff[]> => api.get(`${GZH}/staff`);
/** Silent: 422 at the field. */
export const bindWxOpenid = (userId: number, openid: string): Promise<Empty> => api.post(`${GZH}/bind`, { user_id: userId, openid }, { silent: true });
export const fetchWxLog = (): Promise<LeadNotice[]> => api.get(`${GZH}/log`);
/** A QR code of the official account that binds the staff member who scans it. Silent: the dialog shows why not. */
export const startWxBind = (userId: number): Promise<WxBindQr> => api.post(`${GZH}/bind_qr`, { user_id: userId }, { silent: true });
export const fetchWxBindState = (scene: string): Promise<WxBindQr> => api.get(`${GZH}/bind_state`, { scene }, { silent: true });
