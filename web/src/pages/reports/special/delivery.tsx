/**
 * /special — the task delivery report: per release task, planned posts against published, failed and
 * rejected, with the failure reasons, and a chart of the latest tasks.
 */
import { Card, Empty, Space, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterParams, reportUrls } from '@/api/reports';
import type { Delivery, ReportFilter } from '@/api/reports/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { useSettings } from '@/store/settings';
import { formatTime } from '@/utils/format';
import Chart from '../dashboard/Chart';
import { deliveryOption } from '../shared/options';
import { ExportButton, initialFilter, ReportFilterBar } from '../shared/ReportFilterBar';

export default function DeliveryPage() {
  const { t } = useTranslation('reports');
  const { settings } = useSettings();
  const [filter, setFilter] = useState<ReportFilter>(() => ({ ...initialFilter(), span: 'month' }));
  const [rows, setRows] = useState<Delivery[]>([]);
  const option = useMemo(() => deliveryOption(rows, t), [rows, t]);
  const columns = useMemo<DataTableColumn<Delivery>[]>(
    () => [
      { title: t('col.task'), dataIndex: 'name', width: 200 },
      { title: t('col.platform'), dataIndex: 'platform', width: 90, render: (v: string) => <Tag>{t(`platform.${v}`, { defaultValue: v })}</Tag> },
      { title: t('col.createdAt'), dataIndex: 'created_at', width: 170, render: formatTime },
      { title: t('delivery.planned'), dataIndex: 'planned', width: 90 },
      { title: t('delivery.published'), dataIndex: 'published', width: 90 },
      { title: t('delivery.failed'), dataIndex: 'failed', width: 90, render: (v: number) => (v ? <Tag color="red">{v}</Tag> : v) },
      { title: t('delivery.rejected'), dataIndex: 'rejected', width: 90 },
      { title: t('figure.plays'), dataIndex: 'plays', width: 100, render: (v: number) => v.toLocaleString() },
      {
        title: t('delivery.reasons'),
        dataIndex: 'reasons',
        width: 280,
        render: (_: unknown, row) => (
          <Space orientation="vertical" size={0}>
            {row.reasons.map((r) => (
              <span key={r.reason}>{`${r.reason} ×${r.count}`}</span>
            ))}
          </Space>
        ),
      },
    ],
    [t],
  );
  return (
    <div data-testid="special-delivery">
      <PageHeader title={t('common:menu.special')} subTitle={t('delivery.subtitle')} />
      <div style={{ marginBottom: 16 }}>
        <ReportFilterBar value={filter} onChange={setFilter} />
      </div>
      <Card title={t('delivery.chart')} style={{ marginBottom: 16 }} data-testid="delivery-chart">
        {rows.length ? <Chart option={option} dark={settings.dark} height={300} testId="chart-delivery" /> : <Empty description={t('noData')} />}
      </Card>
      <Card>
        <DataTable<Delivery>
          id="report-delivery"
          api={reportUrls.delivery}
          params={filterParams(filter)}
          columns={columns}
          rowKey="task_id"
          onLoad={(list) => setRows([...list.rows])}
          toolbar={<ExportButton report="delivery" filter={filter} />}
        />
      </Card>
    </div>
  );
}
