/**
 * Engagement (docs/api-engagement.md): comments of every account (`/task.merchant_comment/*`), keyword
 * auto-reply rules (`/task.merchant_comment_keyword/*`), leads (`/msg.merchant_clue/*`), private messages
 * (`/msg.merchant_private_msg/*`) and new-lead notices through WeChat (`/wechat.MerchantWechat/*`,
 * `/msg.wxgzh/*`). Lists are
 * read by DataTable through `engagementUrls`; calls whose 422 is shown at a form field are silent.
 */
import { download, http } from '../request';
import type {
  CommentAccount,
  Conversation,
  EngagementComment,
  Lead,
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
  WxStaff,
} from './types';

const CM = '/task.merchant_comment';
const KW = '/task.merchant_comment_keyword';
const CL = '/msg.merchant_clue';
const PM = '/msg.merchant_private_msg';
const WX = '/wechat.MerchantWechat';
const GZH = '/msg.wxgzh';

type Empty = Record<string, never>;

export const engagementUrls = {
  comments: `${CM}/index`,
  rules: `${KW}/index`,
  replyLog: `${KW}/log_list`,
  leads: `${CL}/index`,
  export: `${CL}/export`,
};

export const fetchCommentAccounts = () => http.get<CommentAccount[]>(`${CM}/accounts`);
/** Silent: a refusal is shown at the reply field. */
export const replyComment = (id: number, text: string) => http.post<EngagementComment>(`${CM}/reply`, { id, text }, { silent: true });
export const setCommentStatus = (id: number, to: 'hide' | 'spam' | 'show') => http.post<EngagementComment>(`${CM}/${to}`, { id });
export const syncComments = (accountId?: number) => http.post<SyncResult>(`${CM}/sync`, accountId ? { account_id: accountId } : {});

/** Add (no id) or edit. Silent: 422 at the field. */
export const saveRule = (req: RuleReq) => http.post<Rule>(`${KW}/${req.id ? 'edit' : 'add'}`, req, { silent: true });
export const deleteRule = (id: number) => http.post<Empty>(`${KW}/delete`, { id });

export const setLeadState = (id: number, state: string) => http.post<Lead>(`${CL}/state`, { id, state });
/** Silent: 422 at the field. */
export const addLeadNote = (id: number, note: string) => http.post<Lead>(`${CL}/note`, { id, note }, { silent: true });
export const assignLead = (id: number, assigneeId: number) => http.post<Lead>(`${CL}/assign`, { id, assignee_id: assigneeId });
export const fetchLeadStaff = () => http.get<LeadStaff[]>(`${CL}/staff_list`);

/** Downloads the leads the caller sees (`leads.xlsx` unless the server names the file). */
export const exportLeads = (format: 'xlsx' | 'csv') => download(engagementUrls.export, { format }, `leads.${format}`, { timeout: 120_000 });

export interface ConversationPage {
  rows: Conversation[];
  total: number;
}
/** The conversations (one account's when `accountId` is given), newest message first. */
export const fetchConversations = (accountId: number, page = 1, limit = 50) =>
  http.get<ConversationPage>(`${PM}/index`, { account_id: accountId || undefined, page, limit });
export const fetchThread = (accountId: number, conversationId: string) =>
  http.get<PrivateMessage[]>(`${PM}/thread`, { account_id: accountId, conversation_id: conversationId });
/** Silent: a refusal (too long, the platform's limits) is shown at the text field. */
export const sendPrivateMessage = (req: PrivateSendReq) => http.post<PrivateMessage[]>(`${PM}/send`, req, { silent: true });
export const fetchMessageAccounts = () => http.get<MessageAccount[]>(`${PM}/accounts`);
export const fetchQuickReplies = () => http.get<QuickReply[]>(`${PM}/quick_reply_list`);
/** Add (id 0) or edit. Silent: 422 at the field. */
export const saveQuickReply = (req: QuickReplyReq) => http.post<QuickReply[]>(`${PM}/quick_reply_save`, req, { silent: true });
export const deleteQuickReply = (id: number) => http.post<Empty>(`${PM}/quick_reply_delete`, { id });

export const fetchWxConfig = () => http.get<WxConfig>(`${WX}/info`);
/** Silent: 422 at the field. */
export const saveWxConfig = (req: WxConfigReq) => http.post<Empty>(`${WX}/save`, req, { silent: true });
export const fetchWxStaff = () => http.get<WxStaff[]>(`${GZH}/staff`);
/** Silent: 422 at the field. */
export const bindWxOpenid = (userId: number, openid: string) => http.post<Empty>(`${GZH}/bind`, { user_id: userId, openid }, { silent: true });
export const fetchWxLog = () => http.get<LeadNotice[]>(`${GZH}/log`);
