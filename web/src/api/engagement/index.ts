/**
 * Engagement (docs/api-engagement.md): comments of every account (`/task.merchant_comment/*`), keyword
 * auto-reply rules (`/task.merchant_comment_keyword/*`) and leads (`/msg.merchant_clue/*`). Lists are
 * read by DataTable through `engagementUrls`; calls whose 422 is shown at a form field are silent.
 */
import { download, http } from '../request';
import type { CommentAccount, EngagementComment, Lead, LeadStaff, Rule, RuleReq, SyncResult } from './types';

const CM = '/task.merchant_comment';
const KW = '/task.merchant_comment_keyword';
const CL = '/msg.merchant_clue';

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
