/**
 * /dy_num, /ks_num, /dd_num, /video_num, /xhs_num — one platform's data (one component, the platform
 * from the path): accounts and the day's figures over day / week / month / a custom range against the
 * period before, the daily chart, and the rankings of accounts and videos (each exportable).
 */
import { useQuery } from '@tanstack/react-query';
import { Avatar, Card, Col, Empty, Row, Space, Statistic, Tabs, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { fetchOverview, filterParams, reportUrls } from '@/api/reports';
import type { AccountRank, ReportFilter, VideoRank } from '@/api/reports/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import SimulatedTag from '@/components/SimulatedTag';
import { useSettings } from '@/store/settings';
import { formatTime } from '@/utils/format';
import Chart from '../dashboard/Chart';
import { compareOption, dailyOption, followersOption, PAGE_PLATFORMS, PAGE_TITLES } from '../shared/options';
import { ExportButton, initialFilter, ReportFilterBar } from '../shared/ReportFilterBar';

type PagePath = keyof typeof PAGE_PLATFORMS;

const FIGURES = ['posts', 'plays', 'likes', 'comments', 'shares'] as const;

function Change({ pct }: { pct: number | null | undefined }) {
  const { t } = useTranslation('reports');
  if (pct === null || pct === undefined) return <Typography.Text type="secondary">{t('compare.none')}</Typography.Text>;
  return <Typography.Text type={pct >= 0 ? 'success' : 'danger'}>{`${pct >= 0 ? '+' : ''}${pct}%`}</Typography.Text>;
}

export function useFigureColumns<T extends object>(): DataTableColumn<T>[] {
  const { t } = useTranslation('reports');
  return useMemo(
    () =>
      (['plays', 'likes', 'comments', 'shares'] as const).map((k) => ({
        title: t(`figure.${k}`),
        dataIndex: k,
        width: 100,
        sorter: true,
        render: (v: number) => v.toLocaleString(),
      })),
    [t],
  );
}

export default function AnalyticsPage() {
  const { t } = useTranslation('reports');
  const { settings } = useSettings();
  const pathname = useLocation().pathname;
  const path = (pathname in PAGE_PLATFORMS ? pathname : '/dy_num') as PagePath;
  const platform = PAGE_PLATFORMS[path];
  const [filter, setFilter] = useState<ReportFilter>(() => initialFilter(platform));
  const f = { ...filter, platform };
  const overview = useQuery({ queryKey: ['report-overview', f], queryFn: () => fetchOverview(f) });
  const o = overview.data;
  const daily = useMemo(() => (o ? dailyOption(o.series, t) : null), [o, t]);
  const followers = useMemo(() => (o ? followersOption(o.series, t) : null), [o, t]);
  const hasFollowers = o?.has_followers ?? true;
  const compare = useMemo(
    () => (o ? compareOption(o.totals as unknown as Record<string, number>, o.previous as unknown as Record<string, number>, t) : null),
    [o, t],
  );
  const params = filterParams(f);
  const figureCols = useFigureColumns<AccountRank>();
  const videoFigureCols = useFigureColumns<VideoRank>();

  const accountColumns = useMemo<DataTableColumn<AccountRank>[]>(
    () => [
      {
        title: t('col.account'),
        dataIndex: 'nickname',
        width: 220,
        render: (v: string, row) => (
          <Space>
            <Avatar src={row.avatar || undefined} size="small">
              {v.slice(0, 1)}
            </Avatar>
            {v}
            {row.sandbox ? <SimulatedTag testId={`account-simulated-${row.account_id}`} /> : null}
          </Space>
        ),
      },
      { title: t('figure.posts'), dataIndex: 'posts', width: 90, sorter: true },
      ...figureCols,
      // Followers on the range's last day and gained over it (the platform's counts, not sortable).
      ...(hasFollowers
        ? [
            { title: t('figure.followers'), dataIndex: 'followers', width: 100, render: (v: number) => v.toLocaleString() },
            { title: t('figure.followerGain'), dataIndex: 'follower_gain', width: 100, render: (v: number) => `${v >= 0 ? '+' : ''}${v.toLocaleString()}` },
          ]
        : []),
    ],
    [t, figureCols, hasFollowers],
  );
  const videoColumns = useMemo<DataTableColumn<VideoRank>[]>(
    () => [
      { title: t('col.title'), dataIndex: 'title', width: 260, ellipsis: true, render: (v: string, row) => (row.share_url ? <a href={row.share_url} target="_blank" rel="noreferrer">{v}</a> : v) },
      { title: t('col.account'), dataIndex: 'nickname', width: 140 },
      { title: t('col.publishedAt'), dataIndex: 'published_at', width: 170, render: formatTime },
      ...videoFigureCols,
    ],
    [t, videoFigureCols],
  );

  return (
    <div data-testid={`analytics-${platform}`}>
      <PageHeader title={t(`common:${PAGE_TITLES[path]}`)} subTitle={t('analytics.subtitle')} />
      <Space style={{ marginBottom: 16, justifyContent: 'space-between', width: '100%' }} wrap>
        <Space wrap>
          <ReportFilterBar value={f} onChange={setFilter} />
          {o && o.simulated_accounts > 0 ? <SimulatedTag testId="report-simulated" accounts={o.simulated_accounts} /> : null}
        </Space>
        <ExportButton report="overview" filter={f} />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={12} md={8} lg={4}>
          <Card loading={overview.isPending}>
            <Statistic title={t('figure.accounts')} value={o?.accounts ?? 0} data-testid="stat-accounts" />
            <Typography.Text type="secondary">{t('analytics.active', { count: o?.active_accounts ?? 0 })}</Typography.Text>
          </Card>
        </Col>
        <Col xs={12} md={8} lg={4}>
          <Card loading={overview.isPending} data-testid="stat-followers-card">
            {hasFollowers ? (
              <>
                <Statistic title={t('figure.followers')} value={o?.totals.followers ?? 0} data-testid="stat-followers" />
                <Space size={4} wrap>
                  <Typography.Text type="secondary" data-testid="stat-follower-gain">
                    {t('followers.gain', { n: `${(o?.totals.follower_gain ?? 0) >= 0 ? '+' : ''}${(o?.totals.follower_gain ?? 0).toLocaleString()}` })}
                  </Typography.Text>
                  <Change pct={o?.change.find((c) => c.figure === 'follower_gain')?.pct} />
                </Space>
              </>
            ) : (
              <>
                <Statistic title={t('figure.followers')} value="—" data-testid="stat-followers" />
                <Typography.Text type="secondary" data-testid="stat-follower-gain">
                  {t('followers.none')}
                </Typography.Text>
              </>
            )}
          </Card>
        </Col>
        {FIGURES.map((k) => (
          <Col xs={12} md={8} lg={k === 'posts' ? 4 : 3} key={k}>
            <Card loading={overview.isPending}>
              <Statistic title={t(`figure.${k}`)} value={o?.totals[k] ?? 0} data-testid={`stat-${k}`} />
              <Change pct={o?.change.find((c) => c.figure === k)?.pct} />
            </Card>
          </Col>
        ))}
        <Col xs={24} lg={16}>
          <Card title={t('analytics.daily')} data-testid="analytics-daily">
            {daily && o && o.totals.posts + o.totals.plays > 0 ? <Chart option={daily} dark={settings.dark} height={320} testId="chart-daily" /> : <Empty description={t('noData')} />}
          </Card>
        </Col>
        <Col xs={24} lg={8}>
          <Card title={o ? t('compare.title', { start: o.previous_start, end: o.previous_end }) : t('compare.current')} data-testid="analytics-compare">
            {compare ? <Chart option={compare} dark={settings.dark} height={320} testId="chart-compare" /> : <Empty />}
          </Card>
        </Col>
        <Col span={24}>
          <Card title={t('followers.title')} data-testid="analytics-followers">
            {!hasFollowers ? (
              <Empty description={t('followers.none')} />
            ) : followers && o && o.totals.followers > 0 ? (
              <Chart option={followers} dark={settings.dark} height={280} testId="chart-followers" />
            ) : (
              <Empty description={t('followers.empty')} />
            )}
          </Card>
        </Col>
        <Col span={24}>
          <Card>
            <Tabs
              items={[
                {
                  key: 'accounts',
                  label: t('analytics.accountRank'),
                  children: (
                    <DataTable<AccountRank>
                      id={`report-accounts-${platform}`}
                      api={reportUrls.accounts}
                      params={params}
                      columns={accountColumns}
                      rowKey="account_id"
                      toolbar={<ExportButton report="accounts" filter={f} testId="export-accounts" />}
                    />
                  ),
                },
                {
                  key: 'videos',
                  label: t('analytics.videoRank'),
                  children: (
                    <DataTable<VideoRank>
                      id={`report-videos-${platform}`}
                      api={reportUrls.videos}
                      params={params}
                      columns={videoColumns}
                      toolbar={<ExportButton report="videos" filter={f} testId="export-videos" />}
                    />
                  ),
                },
              ]}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
