/** A tag's figures: totals as cards and the days (taps, shares, posts, draws, redeemed) as a chart, over 7 or 30 days. */
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Segmented, Space, Spin, Statistic } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useMemo, useState } from 'react';
import { fetchStats, statsExportUrl } from '@/api/nfc';
import type { StatsDay, StatsRange, StatsTotals, Tag, TagStats } from '@/api/nfc/types';
import ExportButton from '@/components/DataTable/ExportButton';
import { FullscreenModal } from '@/components/ModalForm';
import TimeZoneNote from '@/components/TimeZoneNote';
import Chart from '@/pages/reports/dashboard/Chart';
import { useSettings } from '@/store/settings';
import { useNfcT } from './i18n';

export const TOTAL_KEYS: Array<keyof StatsTotals> = ['taps', 'shares', 'posts', 'draws', 'coupons', 'redeemed'];
export const DAY_KEYS: Array<Exclude<keyof StatsDay, 'day'>> = ['taps', 'shares', 'posts', 'draws', 'redeemed'];
const COLORS: Record<(typeof DAY_KEYS)[number], string> = { taps: '#1677ff', shares: '#13c2c2', posts: '#52c41a', draws: '#faad14', redeemed: '#eb2f96' };

export function statsOption(stats: TagStats, t: (k: string) => string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: DAY_KEYS.map((k) => t(`stats.${k}`)), bottom: 0 },
    grid: { left: 40, right: 16, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: stats.days.map((d) => d.day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: DAY_KEYS.map((k) => ({
      name: t(`stats.${k}`),
      type: k === 'taps' ? 'bar' : 'line',
      data: stats.days.map((d) => d[k] ?? 0),
      itemStyle: { color: COLORS[k] },
    })),
  };
}

export default function StatsDialog({ tag, onClose }: { tag: Tag | null; onClose: () => void }) {
  const { t } = useNfcT();
  const { settings } = useSettings();
  const [days, setDays] = useState<StatsRange>(7);
  useEffect(() => {
    if (tag) setDays(7);
  }, [tag]);

  const stats = useQuery({
    queryKey: ['nfc', 'stats', tag?.id, days],
    queryFn: () => fetchStats(tag!.id, days),
    enabled: tag !== null,
    retry: false,
  });
  const data = stats.data;
  const option = useMemo(() => (data ? statsOption(data, t) : null), [data, t]);
  const hasData = Boolean(data?.days.some((d) => DAY_KEYS.some((k) => d[k])));

  return (
    <FullscreenModal open={tag !== null} title={t('stats.title', { name: tag?.name ?? '' })} width={920} footer={null} onCancel={onClose} destroyOnHidden testId="stats-dialog">
      <Space style={{ marginBottom: 16 }} wrap>
        <Segmented<StatsRange>
          value={days}
          onChange={setDays}
          options={[
            { value: 7, label: <span data-testid="stats-days-7">{t('stats.last7')}</span> },
            { value: 30, label: <span data-testid="stats-days-30">{t('stats.last30')}</span> },
          ]}
          data-testid="stats-days"
        />
        <TimeZoneNote />
        {tag ? <ExportButton api={statsExportUrl} params={{ id: tag.id, days }} name="nfc-stats" testId="stats-export" /> : null}
      </Space>
      <Spin spinning={stats.isFetching}>
        <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
          {TOTAL_KEYS.map((k) => (
            <Col key={k} xs={12} sm={8} md={4}>
              <Card size="small" data-testid={`stats-total-${k}`}>
                <Statistic title={t(`stats.${k}`)} value={data?.totals[k] ?? 0} />
              </Card>
            </Col>
          ))}
        </Row>
        {option && hasData ? (
          <Chart option={option} height={300} dark={settings.dark} testId="stats-chart" />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="stats-empty">{stats.isError ? t('stats.failed') : t('stats.noData')}</span>} />
        )}
      </Spin>
    </FullscreenModal>
  );
}
