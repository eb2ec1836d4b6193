/**
 * Report calls (docs/api-reports.md). Lists are read by DataTable through `reportUrls` with the
 * page's filters as params; exports are downloads with the same filters.
 */
import { api } from '../client';
import { download } from '../request';
import type { Dashboard } from '../auth/types';
import type { Overview, ReportFilter, ReportName, Screen } from './types';

const R = '/common.merchant_report';

export const reportUrls = {
  overview: `${R}/overview`,
  accounts: `${R}/accounts`,
  videos: `${R}/videos`,
  attribution: `${R}/attribution`,
  delivery: `${R}/delivery`,
  staff: `${R}/staff`,
  export: `${R}/export`,
  userVideo: '/externalApi/getUserVideo',
  screen: '/databoard.index/index',
} as const;

/** Only the filters that are set (a custom range's dates only with span custom). */
export function filterParams(f: ReportFilter): Record<string, string> {
  const out: Record<string, string> = { span: f.span };
  if (f.platform) out.platform = f.platform;
  if (f.dimension) out.dimension = f.dimension;
  if (f.merchant_id) out.merchant_id = String(f.merchant_id);
  if (f.span === 'custom' && f.start && f.end) {
    out.start = f.start;
    out.end = f.end;
  }
  return out;
}

export const fetchOverview = (f: ReportFilter): Promise<Overview> => api.get(reportUrls.overview, filterParams(f));
export const fetchScreen = (): Promise<Screen> => api.get(reportUrls.screen);
export const fetchDashboardDays = (days: 7 | 30): Promise<Dashboard> => api.get('/index/dashboard', { days });

/** Downloads a report with the same filters as shown (xlsx or CSV). */
export const exportReport = (report: ReportName, format: 'xlsx' | 'csv', f: ReportFilter, extra: Record<string, string> = {}) =>
  download(reportUrls.export, { ...filterParams(f), ...extra, report, format }, `report-${report}.${format}`, { timeout: 120_000 });
