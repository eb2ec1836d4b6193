/** /special2 — staff activity: each person's operations, refusals, release tasks and render batches. */
import { Card, Empty } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterParams, reportUrls } from '@/api/reports';
import type { ReportFilter, StaffActivity } from '@/api/reports/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { useSettings } from '@/store/settings';
import { formatTime } from '@/utils/format';
import Chart from '../dashboard/Chart';
import { rankOption } from '../shared/options';
import { ExportButton, initialFilter, ReportFilterBar } from '../shared/ReportFilterBar';

export default function StaffPage() {
  const { t } = useTranslation('reports');
  const { settings } = useSettings();
  const [filter, setFilter] = useState<ReportFilter>(() => initialFilter());
  const [rows, setRows] = useState<StaffActivity[]>([]);
  const option = useMemo(() => rankOption(rows.map((r) => ({ label: r.username, value: r.actions })), t('staff.actions')), [rows, t]);
  const columns = useMemo<DataTableColumn<StaffActivity>[]>(
    () => [
      { title: t('staff.user'), dataIndex: 'username', width: 160 },
      { title: t('staff.actions'), dataIndex: 'actions', width: 100 },
      { title: t('staff.refused'), dataIndex: 'refused', width: 100 },
      { title: t('staff.tasks'), dataIndex: 'tasks', width: 120 },
      { title: t('staff.renders'), dataIndex: 'renders', width: 120 },
      { title: t('staff.lastAt'), dataIndex: 'last_at', width: 170, render: formatTime },
    ],
    [t],
  );
  return (
    <div data-testid="special-staff">
      <PageHeader title={t('common:menu.special2')} subTitle={t('staff.subtitle')} />
      <div style={{ marginBottom: 16 }}>
        <ReportFilterBar value={filter} onChange={setFilter} />
      </div>
      <Card title={t('staff.chart')} style={{ marginBottom: 16 }} data-testid="staff-chart">
        {rows.length ? <Chart option={option} dark={settings.dark} height={280} testId="chart-staff" /> : <Empty description={t('noData')} />}
      </Card>
      <Card>
        <DataTable<StaffActivity>
          id="report-staff"
          api={reportUrls.staff}
          params={filterParams(filter)}
          columns={columns}
          pagination={false}
          rowKey="user_id"
          onLoad={(list) => setRows([...list.rows])}
          toolbar={<ExportButton report="staff" filter={filter} />}
        />
      </Card>
    </div>
  );
}
