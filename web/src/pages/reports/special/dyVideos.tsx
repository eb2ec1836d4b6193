/** /specialdyvideo — the Douyin video report: every Douyin video of the range with its figures, best first. */
import { Card, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterParams, reportUrls } from '@/api/reports';
import type { ReportFilter, VideoRank } from '@/api/reports/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { useSettings } from '@/store/settings';
import { formatTime } from '@/utils/format';
import { useFigureColumns } from '../analytics';
import Chart from '../dashboard/Chart';
import { rankOption } from '../shared/options';
import { ExportButton, initialFilter, ReportFilterBar } from '../shared/ReportFilterBar';

export default function DyVideosPage() {
  const { t } = useTranslation('reports');
  const { settings } = useSettings();
  const [filter, setFilter] = useState<ReportFilter>(() => ({ ...initialFilter('dy'), span: 'month' }));
  const [rows, setRows] = useState<VideoRank[]>([]);
  const figures = useFigureColumns<VideoRank>();
  const option = useMemo(() => rankOption(rows.map((r) => ({ label: r.title, value: r.plays })), t('figure.plays')), [rows, t]);
  const columns = useMemo<DataTableColumn<VideoRank>[]>(
    () => [
      { title: t('col.title'), dataIndex: 'title', width: 260, ellipsis: true, render: (v: string, row) => (row.share_url ? <a href={row.share_url} target="_blank" rel="noreferrer">{v}</a> : v) },
      { title: t('col.video'), dataIndex: 'video_name', width: 160, ellipsis: true },
      { title: t('col.account'), dataIndex: 'nickname', width: 140 },
      { title: t('col.publishedAt'), dataIndex: 'published_at', width: 170, render: formatTime },
      ...figures,
    ],
    [t, figures],
  );
  return (
    <div data-testid="special-dy-videos">
      <PageHeader title={t('common:menu.specialDyVideo')} subTitle={t('dyVideos.subtitle')} />
      <div style={{ marginBottom: 16 }}>
        <ReportFilterBar value={filter} onChange={setFilter} />
      </div>
      <Card title={t('dyVideos.top')} style={{ marginBottom: 16 }} data-testid="dy-videos-chart">
        {rows.length ? <Chart option={option} dark={settings.dark} height={320} testId="chart-dy-videos" /> : <Empty description={t('noData')} />}
      </Card>
      <Card>
        <DataTable<VideoRank>
          id="report-dy-videos"
          api={reportUrls.videos}
          params={filterParams(filter)}
          columns={columns}
          onLoad={(list) => setRows([...list.rows])}
          toolbar={<ExportButton report="videos" filter={filter} />}
        />
      </Card>
    </div>
  );
}
