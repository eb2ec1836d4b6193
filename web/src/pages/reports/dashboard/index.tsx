import { AccountBookOutlined, ApiOutlined, DashboardOutlined, FileTextOutlined, UserOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Segmented, Space, Statistic, Tag, Timeline, Typography } from 'antd';
import type { EChartsCoreOption } from 'echarts/core';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAccess } from '@/access/AccessContext';
import { fetchVersionLog } from '@/api/auth';
import type { Dashboard } from '@/api/auth/types';
import { fetchDashboardDays } from '@/api/reports';
import HotSearchCard from '@/pages/content/hotlists/HotSearchCard';
import PageHeader from '@/components/PageHeader';
import { useSettings } from '@/store/settings';
import { formatDate } from '@/utils/format';
import Chart from './Chart';

/** SPEC §2: default grid layout [12, 6, 6] (points, publishing chart, video-data chart). */
export const DASHBOARD_GRID = [12, 6, 6] as const;

function publishOption(d: Dashboard, t: (k: string) => string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [t('dashboard.success'), t('dashboard.failed')], bottom: 0 },
    grid: { left: 36, right: 12, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: d.publish.days.map((day) => day.slice(5)) },
    yAxis: { type: 'value', minInterval: 1 },
    series: [
      { name: t('dashboard.success'), type: 'bar', stack: 'p', data: d.publish.success, itemStyle: { color: '#52c41a' } },
      { name: t('dashboard.failed'), type: 'bar', stack: 'p', data: d.publish.failed, itemStyle: { color: '#ff4d4f' } },
    ],
  };
}

function videoOption(d: Dashboard, t: (k: string) => string): EChartsCoreOption {
  return {
    tooltip: { trigger: 'axis' },
    legend: { data: [t('dashboard.plays'), t('dashboard.likes')], bottom: 0 },
    grid: { left: 44, right: 12, top: 16, bottom: 40 },
    xAxis: { type: 'category', data: d.video.days.map((day) => day.slice(5)) },
    yAxis: { type: 'value' },
    series: [
      { name: t('dashboard.plays'), type: 'line', smooth: true, data: d.video.plays },
      { name: t('dashboard.likes'), type: 'line', smooth: true, data: d.video.likes },
    ],
  };
}

export default function DashboardPage() {
  const { t } = useTranslation('reports');
  const { settings } = useSettings();
  // an operator has no points of its own: the server sums what the merchants hold, and the card says so
  const operator = useAccess().user?.kind === 'operator';
  // SPEC §2: the publishing and video-data charts over the last 7 or 30 days (the report rollup)
  const [days, setDays] = useState<7 | 30>(7);
  const dashboard = useQuery({ queryKey: ['dashboard', days], queryFn: () => fetchDashboardDays(days) });
  const versions = useQuery({ queryKey: ['versionLog'], queryFn: () => fetchVersionLog({ page: 1, pageSize: 5 }) });
  const d = dashboard.data;
  const publish = useMemo(() => (d ? publishOption(d, t) : null), [d, t]);
  const video = useMemo(() => (d ? videoOption(d, t) : null), [d, t]);
  const [pointsSpan, publishSpan, videoSpan] = DASHBOARD_GRID;

  return (
    <>
      <PageHeader
        title={t('common:menu.dashboard')}
        subTitle={t('dashboard.subtitle')}
        extra={
          <Space>
            <Segmented<7 | 30>
              value={days}
              options={[
                { value: 7, label: t('dashboard.days7') },
                { value: 30, label: t('dashboard.days30') },
              ]}
              onChange={setDays}
              data-testid="dashboard-days"
            />
            {!operator && (
              <Link to="/actual_screen" data-testid="dashboard-screen-link">
                <DashboardOutlined /> {t('dashboard.openScreen')}
              </Link>
            )}
          </Space>
        }
      />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={pointsSpan}>
          <Card title={t(operator ? 'dashboard.merchantPoints' : 'dashboard.points')} loading={dashboard.isPending} data-testid="dashboard-points" style={{ height: '100%' }}>
            <Statistic value={d?.points ?? 0} suffix={t('dashboard.pointsUnit')} styles={{ content: { fontSize: 40 } }} />
            <Typography.Paragraph type="secondary" style={{ marginTop: 12 }}>
              {t(operator ? 'dashboard.merchantPointsHint' : 'dashboard.pointsHint')}
            </Typography.Paragraph>
            {operator ? <Link to="/system/merchant">{t('dashboard.viewMerchants')}</Link> : <Link to="/useRecord">{t('dashboard.viewRecords')}</Link>}
          </Card>
        </Col>
        <Col xs={24} lg={publishSpan}>
          <Card title={t('dashboard.publish', { days })} loading={dashboard.isPending} data-testid="dashboard-publish" style={{ height: '100%' }}>
            {d && d.has_publish_data && publish ? (
              <Chart option={publish} dark={settings.dark} testId="chart-publish" />
            ) : (
              <Empty description={t('dashboard.noPublishData')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={videoSpan}>
          <Card title={t('dashboard.video', { days })} loading={dashboard.isPending} data-testid="dashboard-video" style={{ height: '100%' }}>
            {d && d.has_video_data && video ? (
              <Chart option={video} dark={settings.dark} testId="chart-video" />
            ) : (
              <Empty description={t('dashboard.noVideoData')} />
            )}
          </Card>
        </Col>
        <Col xs={24} lg={12}>
          <Card title={t('dashboard.updateLog')} loading={versions.isPending} data-testid="dashboard-update-log">
            {versions.data?.rows?.length ? (
              <Timeline
                items={versions.data.rows.map((item) => ({
                  key: item.id,
                  color: 'blue',
                  content: (
                    <>
                      <Space>
                        <Tag color="blue">v{item.version}</Tag>
                        <Typography.Text type="secondary">{formatDate(item.created_at)}</Typography.Text>
                      </Space>
                      <div style={{ whiteSpace: 'pre-line', marginTop: 4 }}>{item.content}</div>
                    </>
                  ),
                }))}
              />
            ) : (
              <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('common:table.noData')} />
            )}
          </Card>
        </Col>
        {/* hot rankings: today's hot searches, for users whose menus grant them */}
        <Col xs={24} lg={6}>
          <HotSearchCard limit={8} testId="dashboard-hot" />
        </Col>
        <Col xs={24} lg={6}>
          <Card title={t('dashboard.links')} data-testid="dashboard-links">
            <Space orientation="vertical">
              <Link to="/useRecord">
                <AccountBookOutlined /> {t('common:menu.useRecord')}
              </Link>
              <Link to="/log">
                <FileTextOutlined /> {t('common:menu.log')}
              </Link>
              <Link to="/usercenter">
                <UserOutlined /> {t('common:menu.usercenter')}
              </Link>
              <a href="/api/docs" target="_blank" rel="noreferrer">
                <ApiOutlined /> {t('common:footer.api')}
              </a>
            </Space>
          </Card>
        </Col>
      </Row>
    </>
  );
}
