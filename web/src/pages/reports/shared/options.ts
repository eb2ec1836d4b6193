/** ECharts options of the report pages (pure: tested without a canvas). */
import type { EChartsCoreOption } from 'echarts/core';
import type { ReportSeries } from '@/api/reports/types';

type T = (k: string) => string;

/** Plays, likes, comments and shares per day as lines, posts as bars on a second axis. */
export function dailyOption(s: ReportSeries, t: T): EChartsCoreOption {
  const line = (key: 'plays' | 'likes' | 'comments' | 'shares') => ({ name: t(`figure.${key}`), type: 'line', smooth: true, data: s[key] });
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 48, right: 40, top: 24, bottom: 48 },
    xAxis: { type: 'category', data: s.days.map((d) => d.slice(5)) },
    yAxis: [{ type: 'value' }, { type: 'value', minInterval: 1 }],
    series: [line('plays'), line('likes'), line('comments'), line('shares'), { name: t('figure.posts'), type: 'bar', yAxisIndex: 1, data: s.posts, barMaxWidth: 18 }],
  };
}

/** The accounts' followers at the end of each day (line) and each day's gain (bars, second axis). */
export function followersOption(s: ReportSeries, t: T): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 56, right: 48, top: 24, bottom: 48 },
    xAxis: { type: 'category', data: s.days.map((d) => d.slice(5)) },
    yAxis: [{ type: 'value', scale: true }, { type: 'value', minInterval: 1 }],
    series: [
      { name: t('figure.followers'), type: 'line', smooth: true, data: s.followers },
      { name: t('figure.followerGain'), type: 'bar', yAxisIndex: 1, data: s.follower_gain, barMaxWidth: 18 },
    ],
  };
}

/** This period against the one before, figure by figure. */
export function compareOption(now: Record<string, number>, before: Record<string, number>, t: T): EChartsCoreOption {
  const keys = ['posts', 'plays', 'likes', 'comments', 'shares'];
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 48, right: 12, top: 24, bottom: 48 },
    xAxis: { type: 'category', data: keys.map((k) => t(`figure.${k}`)) },
    yAxis: { type: 'value' },
    series: [
      { name: t('compare.previous'), type: 'bar', data: keys.map((k) => before[k] ?? 0), itemStyle: { color: '#bfbfbf' } },
      { name: t('compare.current'), type: 'bar', data: keys.map((k) => now[k] ?? 0) },
    ],
  };
}

/** A horizontal ranking: the first `n` labels by value, best on top. */
export function rankOption(rows: { label: string; value: number }[], name: string, n = 10): EChartsCoreOption {
  const top = rows.slice(0, n).reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 140, right: 24, top: 8, bottom: 24 },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', data: top.map((r) => (r.label.length > 14 ? `${r.label.slice(0, 14)}…` : r.label)) },
    series: [{ name, type: 'bar', data: top.map((r) => r.value), barMaxWidth: 18 }],
  };
}

/** A report page's platform from its route: /dy_num → dy … (dd is the Douyin shop, video is Channels). */
export const PAGE_PLATFORMS = { '/dy_num': 'dy', '/ks_num': 'ks', '/dd_num': 'dd', '/video_num': 'video', '/xhs_num': 'xhs' } as const;
export const PAGE_TITLES = { '/dy_num': 'menu.dyNum', '/ks_num': 'menu.ksNum', '/dd_num': 'menu.ddNum', '/video_num': 'menu.videoNum', '/xhs_num': 'menu.xhsNum' } as const;

/** Planned against published and failed, per task (the latest first). */
export function deliveryOption(rows: { name: string; planned: number; published: number; failed: number }[], t: T): EChartsCoreOption {
  const top = rows.slice(0, 12);
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0 },
    grid: { left: 48, right: 12, top: 24, bottom: 56 },
    xAxis: { type: 'category', data: top.map((r) => r.name), axisLabel: { interval: 0, rotate: top.length > 6 ? 30 : 0 } },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t('delivery.planned'), type: 'bar', data: top.map((r) => r.planned), itemStyle: { color: '#91caff' } },
      { name: t('delivery.published'), type: 'bar', data: top.map((r) => r.published), itemStyle: { color: '#52c41a' } },
      { name: t('delivery.failed'), type: 'bar', data: top.map((r) => r.failed), itemStyle: { color: '#ff4d4f' } },
    ],
  };
}
