/**
 * Auth types: the server's answers and bodies are generated from its OpenAPI document
 * (`make api-types` writes ../schema.d.ts); only the console's own narrowings are written here.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type LoginType = Schemas['LoginType'];
export type SmsScene = 'login' | 'register' | 'reset';

export type LoginIndex = Schemas['LoginIndexView'];
export type PlatformInit = Schemas['PlatformInitView'];
export type UserRecord = Schemas['UserRecordView'];
export type LoginResult = Schemas['LoginResultView'];
export type LoginBody = Schemas['LoginReq'];
export type RegisterBody = Schemas['RegisterReq'];
export type ResetPasswordBody = Schemas['ResetPasswordReq'];
export type MenuNode = Schemas['MenuNode'];
export type InitAdmin = Schemas['InitAdminView'];
export type ApiToken = Schemas['ApiTokenView'];
export type CreatedApiToken = Schemas['CreatedApiToken'];
export type ApiTokenBody = Schemas['ApiTokenReq'];
export type TokenScope = Schemas['TokenScope'];
export type Banner = Schemas['Link'];
export type Course = Schemas['CourseCard'];
export type Dashboard = Schemas['DashboardView'];
export type VersionLog = Schemas['VersionLog'];
export type OperationLog = Schemas['LogView'];
export type UsageRecord = Schemas['Entry'];
export type UsageSummary = Schemas['UsageSummary'];
export type StaffRow = Schemas['StaffView'];
export type StaffAddBody = Schemas['StaffAddReq'];
export type StaffEditBody = Schemas['StaffEditReq'];
export type AuthMenu = Schemas['AuthMenuView'];
