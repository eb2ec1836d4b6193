/**
 * Engagement (docs/api-engagement.md): comments, keyword auto-reply rules and their log, leads.
 * Generated from the server's OpenAPI document (`make api-types`); the string unions are narrowings.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type Intent = '' | 'purchase' | 'contact' | 'spam';
export type CommentStatus = Schemas['CommentStatus'];
export type LeadState = Schemas['LeadState'];
export type MatchMode = 'exact' | 'contains' | 'segmented';

export type EngagementComment = Schemas['EngagementComment'];
export type CommentAccount = Schemas['CommentAccount'];
export type SyncResult = Schemas['SyncView'];
export type Rule = Schemas['RuleView'];
export type RuleReq = Schemas['RuleReq'];
export type ReplyLog = Schemas['ReplyLogView'];
export type Lead = Schemas['LeadView'];
export type LeadStaff = Schemas['LeadStaff'];
export type Conversation = Schemas['ConversationView'];
export type PrivateMessage = Schemas['PrivateMessageView'];
export type PrivateSendReq = Schemas['PrivateSendReq'];
export type MessageAccount = Schemas['MessageAccountView'];
export type QuickReply = Schemas['QuickReplyView'];
export type QuickReplyReq = Schemas['QuickReplyReq'];
export type WxConfig = Schemas['WxConfigView'];
export type WxConfigReq = Schemas['WxConfigReq'];
export type WxStaff = Schemas['WxStaffView'];
export type WxBindQr = Schemas['WxBindQrView'];
export type WrittenRows = Schemas['WrittenRows'];
export type LeadNotice = Schemas['NoticeView'];
