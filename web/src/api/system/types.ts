/**
 * System types: generated from the server's OpenAPI document (`make api-types` writes ../schema.d.ts).
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type MerchantRow = Schemas['MerchantRow'];
export type RoleRow = Schemas['RoleView'];
/** `jobs.state` (domain::jobs::JobState). */
export type TaskState = 'queued' | 'running' | 'done' | 'failed' | 'dead';
export type TaskRow = Schemas['Job'];
export type MenuEditBody = Schemas['MenuEdit'];
/** One option of a dictionary as stored (the label may be bilingual '中文 / English'). */
export type DicOption = Schemas['Opt'];
export type DicRow = Schemas['DictView'];
/** The SMS gateway as saved (the secret masked) and the form that saves it. */
export type SmsGateway = Schemas['SmsGatewayView'];
export type SmsGatewayReq = Schemas['SmsGatewayReq'];
export type SmsProvider = Schemas['SmsProvider'];
export type SmsTestView = Schemas['SmsTestView'];
