/** The data screen's ECharts options (pure, tested without a canvas). */
import type { EChartsCoreOption } from 'echarts/core';
import type { Screen } from '@/api/reports/types';

type T = (k: string) => string;

export function weekOption(s: Screen, t: T): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { bottom: 0, textStyle: { color: '#cfe3ff' } },
    // the axis labels stay inside the chart whatever the numbers' length
    grid: { left: 8, right: 8, top: 24, bottom: 36, containLabel: true },
    xAxis: { type: 'category', data: s.week.days.map((d) => d.slice(5)) },
    yAxis: [{ type: 'value' }, { type: 'value', minInterval: 1 }],
    series: [
      { name: t('figure.plays'), type: 'line', smooth: true, areaStyle: { opacity: 0.25 }, data: s.week.plays },
      { name: t('figure.likes'), type: 'line', smooth: true, data: s.week.likes },
      { name: t('figure.posts'), type: 'bar', yAxisIndex: 1, data: s.week.posts, barMaxWidth: 22 },
    ],
  };
}

/**
 * The map's name of a province as accounts store it ("广东省", "北京市", "广西壮族自治区", "香港特别行政区"):
 * the map names provinces without the administrative suffix ("广东", "北京", "广西", "香港").
 */
export function provinceName(province: string): string {
  const p = province.trim();
  for (const s of ['特别行政区', '壮族自治区', '回族自治区', '维吾尔自治区', '自治区', '省', '市']) {
    if (p.endsWith(s) && p.length > s.length) return p.slice(0, -s.length);
  }
  return p;
}

/** Plays by province on the map of China (`chinaMap.ts` registers it), shaded by plays. */
export function regionMapOption(s: Screen, t: T): EChartsCoreOption {
  const data = s.regions.map((r) => ({ name: provinceName(r.province), value: r.plays, accounts: r.accounts }));
  const max = Math.max(1, ...data.map((d) => d.value));
  return {
    tooltip: {
      trigger: 'item',
      formatter: (p: { name: string; value?: number; data?: { accounts: number } }) =>
        `${p.name}<br/>${t('figure.plays')}: ${(Number.isFinite(p.value) ? (p.value as number) : 0).toLocaleString()}<br/>${t('figure.accounts')}: ${p.data?.accounts ?? 0}`,
    },
    visualMap: { min: 0, max, left: 8, bottom: 8, calculable: true, inRange: { color: ['#16406b', '#36cfc9'] }, textStyle: { color: '#cfe3ff' } },
    series: [
      {
        name: t('figure.plays'),
        type: 'map',
        map: 'china',
        roam: false,
        layoutCenter: ['50%', '55%'],
        layoutSize: '110%',
        data,
        itemStyle: { areaColor: '#0d2a4a', borderColor: '#3a6ea5' },
        emphasis: { label: { show: true, color: '#fff' }, itemStyle: { areaColor: '#597ef7' } },
      },
    ],
  };
}

/** Plays by the accounts' province (the accounts' POI region), largest on top. */
export function regionOption(s: Screen, t: T): EChartsCoreOption {
  const top = s.regions.slice(0, 10).reverse();
  return {
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
    grid: { left: 8, right: 24, top: 8, bottom: 8, containLabel: true },
    xAxis: { type: 'value' },
    yAxis: { type: 'category', data: top.map((r) => r.province) },
    series: [
      { name: t('figure.plays'), type: 'bar', data: top.map((r) => r.plays), itemStyle: { color: '#36cfc9' }, barMaxWidth: 20 },
      { name: t('figure.accounts'), type: 'bar', data: top.map((r) => r.accounts), itemStyle: { color: '#597ef7' }, barMaxWidth: 20 },
    ],
  };
}

/** Today's planned posts by what became of them. */
export function progressOption(s: Screen, t: T): EChartsCoreOption {
  const waiting = Math.max(0, s.today_planned - s.today_published - s.today_failed);
  return {
    tooltip: { trigger: 'item' },
    series: [
      {
        type: 'pie',
        radius: ['45%', '75%'],
        label: { color: '#cfe3ff' },
        data: [
          { name: t('delivery.published'), value: s.today_published, itemStyle: { color: '#52c41a' } },
          { name: t('screen.waiting'), value: waiting, itemStyle: { color: '#597ef7' } },
          { name: t('delivery.failed'), value: s.today_failed, itemStyle: { color: '#ff4d4f' } },
        ],
      },
    ],
  };
}
