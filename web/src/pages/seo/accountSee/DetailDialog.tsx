/**
 * A benchmark account in detail (docs/api-seo.md `seo.benchmark/info`): its figures, followers / works /
 * plays over time (ECharts, loaded lazily), posts a day, its top videos and the words of its titles.
 */
import { useQuery } from '@tanstack/react-query';
import { Avatar, Card, Col, Empty, Row, Space, Spin, Statistic, Table, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo } from 'react';
import { fetchBenchmark } from '@/api/seo';
import type { Benchmark, BenchmarkDetail, Work } from '@/api/seo/types';
import { FullscreenModal } from '@/components/ModalForm';
import Chart from '@/pages/reports/dashboard/Chart';
import { useSettings } from '@/store/settings';
import { formatTime } from '@/utils/format';
import { useSeoT } from '../i18n';
import WordChips from '../shared/WordChips';
import { SourceTag } from '../shared/SourceTag';

export const SERIES_KEYS = ['followers', 'works', 'plays'] as const;
const COLORS = { followers: '#1677ff', works: '#52c41a', plays: '#faad14' } as const;

/** Followers and works on the left axis, plays (much larger) as bars on the right one. */
export function seriesOption(detail: BenchmarkDetail, t: (k: string) => string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: SERIES_KEYS.map((k) => t(`bench.${k}`)), bottom: 0 },
    grid: { left: 56, right: 56, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: detail.series.map((d) => d.day.slice(5)) },
    yAxis: [
      { type: 'value', minInterval: 1 },
      { type: 'value', minInterval: 1, splitLine: { show: false } },
    ],
    series: SERIES_KEYS.map((k) => ({
      name: t(`bench.${k}`),
      type: k === 'plays' ? 'bar' : 'line',
      yAxisIndex: k === 'plays' ? 1 : 0,
      data: detail.series.map((d) => d[k] ?? 0),
      itemStyle: { color: COLORS[k] },
    })),
  };
}

const FIGURES = ['followers', 'likes', 'works', 'posts_7d', 'plays_7d'] as const;

export default function DetailDialog({ account, onClose }: { account: Benchmark | null; onClose: () => void }) {
  const { t } = useSeoT();
  const { settings } = useSettings();
  const detail = useQuery({ queryKey: ['seo', 'benchmark', account?.id], queryFn: () => fetchBenchmark(account!.id), enabled: account !== null, retry: false });
  const data = detail.data;
  const option = useMemo(() => (data?.series.length ? seriesOption(data, t) : null), [data, t]);

  return (
    <FullscreenModal
      open={account !== null}
      title={
        <Space>
          <Avatar src={account?.avatar || undefined} size="small" />
          {t('bench.detailTitle', { name: account?.nickname ?? '' })}
          <SourceTag source={account?.source} testId="bench-detail-source" />
        </Space>
      }
      width={1000}
      footer={null}
      onCancel={onClose}
      destroyOnHidden
      testId="bench-detail"
    >
      <Spin spinning={detail.isFetching}>
        <Row gutter={[12, 12]} style={{ marginBottom: 16 }}>
          {FIGURES.map((k) => (
            <Col key={k} xs={12} sm={8} md={4}>
              <Card size="small" data-testid={`bench-figure-${k}`}>
                <Statistic title={t(`bench.${k}`)} value={data?.[k] ?? account?.[k] ?? 0} />
              </Card>
            </Col>
          ))}
          <Col xs={12} sm={8} md={4}>
            <Card size="small" data-testid="bench-figure-per_day">
              <Statistic title={t('bench.perDay')} value={data?.per_day ?? 0} precision={1} />
            </Card>
          </Col>
        </Row>
        <Typography.Title level={5}>{t('bench.trend')}</Typography.Title>
        {option ? (
          <Chart option={option} height={280} dark={settings.dark} testId="bench-chart" />
        ) : (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid="bench-chart-empty">{detail.isError ? t('bench.failed') : t('bench.noSeries')}</span>} />
        )}
        <Row gutter={16} style={{ marginTop: 16 }}>
          <Col xs={24} lg={15}>
            <Typography.Title level={5}>{t('bench.top')}</Typography.Title>
            {/* part of the detail answer, not a server list */}
            <Table<Work>
              size="small"
              rowKey="work_id"
              dataSource={data?.top ?? []}
              pagination={false}
              scroll={{ x: 600, y: 320 }}
              onRow={(row) => ({ 'data-testid': `bench-top-${row.work_id}` }) as React.HTMLAttributes<HTMLElement>}
              columns={[
                { title: t('bench.workTitle'), dataIndex: 'title', ellipsis: true },
                { title: t('bench.plays'), dataIndex: 'plays', width: 90 },
                { title: t('bench.likes'), dataIndex: 'likes', width: 80 },
                { title: t('bench.comments'), dataIndex: 'comments', width: 80 },
                { title: t('bench.publishedAt'), dataIndex: 'create_time', width: 150, render: formatTime },
              ]}
            />
          </Col>
          <Col xs={24} lg={9}>
            <Typography.Title level={5}>{t('bench.words')}</Typography.Title>
            <WordChips words={data?.words ?? []} testId="bench-words" empty={t('bench.noWords')} />
          </Col>
        </Row>
      </Spin>
    </FullscreenModal>
  );
}
