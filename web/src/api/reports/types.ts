/**
 * Reports (area `reports`): the dashboard, per-platform analytics, the special reports and the data
 * screen. Generated from the server's OpenAPI document (`make api-types` writes ../schema.d.ts).
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

/** The analytics pages' platforms: dd is the Douyin shop, video is WeChat Channels. */
export type ReportPlatform = 'dy' | 'ks' | 'dd' | 'video' | 'xhs';
export type Span = 'day' | 'week' | 'month' | 'custom';
export type Dimension = 'clip' | 'group' | 'title' | 'voice' | 'project';
export type ReportName = 'overview' | 'accounts' | 'videos' | 'attribution' | 'delivery' | 'staff';

/** The filters every report takes. */
export interface ReportFilter {
  platform?: string;
  span: Span;
  start?: string;
  end?: string;
  dimension?: Dimension;
  /** The operator only: one merchant (none: every merchant's figures summed). */
  merchant_id?: number;
}

export type Overview = Schemas['OverviewView'];
export type ReportSeries = Schemas['ReportSeries'];
export type ReportFigures = Schemas['ReportFigures'];
export type AccountRank = Schemas['AccountRankView'];
export type VideoRank = Schemas['VideoRankView'];
export type Attribution = Schemas['AttributionView'];
export type Delivery = Schemas['DeliveryView'];
export type StaffActivity = Schemas['StaffActivityView'];
export type Screen = Schemas['ScreenView'];
