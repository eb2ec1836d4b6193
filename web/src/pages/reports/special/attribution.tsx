/**
 * /xzsspecial — material performance (attribution): which clips, shot groups, titles, voice-overs and
 * projects bring the most plays per post, over the posts of rendered variants in the range.
 */
import { Card, Col, Empty, Row, Segmented, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { filterParams, reportUrls } from '@/api/reports';
import type { Attribution, Dimension, ReportFilter } from '@/api/reports/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { useSettings } from '@/store/settings';
import Chart from '../dashboard/Chart';
import { rankOption } from '../shared/options';
import { ExportButton, initialFilter, ReportFilterBar } from '../shared/ReportFilterBar';

export const DIMENSIONS: Dimension[] = ['clip', 'group', 'title', 'voice', 'project'];

export default function AttributionPage() {
  const { t } = useTranslation('reports');
  const { settings } = useSettings();
  const [filter, setFilter] = useState<ReportFilter>(() => ({ ...initialFilter(), span: 'month', dimension: 'clip' }));
  const [rows, setRows] = useState<Attribution[]>([]);
  const option = useMemo(() => rankOption(rows.map((r) => ({ label: r.label, value: r.per_post })), t('figure.perPost')), [rows, t]);
  const columns = useMemo<DataTableColumn<Attribution>[]>(
    () => [
      { title: t(`dimension.${filter.dimension ?? 'clip'}`), dataIndex: 'label', width: 260, ellipsis: true },
      { title: t('figure.posts'), dataIndex: 'posts', width: 100 },
      { title: t('figure.plays'), dataIndex: 'plays', width: 120, render: (v: number) => v.toLocaleString() },
      { title: t('figure.likes'), dataIndex: 'likes', width: 100, render: (v: number) => v.toLocaleString() },
      { title: t('figure.perPost'), dataIndex: 'per_post', width: 140, render: (v: number) => <b>{v.toLocaleString()}</b> },
    ],
    [t, filter.dimension],
  );
  return (
    <div data-testid="special-attribution">
      <PageHeader title={t('common:menu.xzsSpecial')} subTitle={t('attribution.subtitle')} />
      <Space wrap style={{ marginBottom: 16 }}>
        <ReportFilterBar value={filter} onChange={setFilter} />
        <Segmented<Dimension>
          value={filter.dimension}
          options={DIMENSIONS.map((d) => ({ value: d, label: t(`dimension.${d}`) }))}
          onChange={(dimension) => setFilter({ ...filter, dimension })}
          data-testid="attribution-dimension"
        />
      </Space>
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={10}>
          <Card title={t('attribution.best')} data-testid="attribution-chart">
            {rows.length ? <Chart option={option} dark={settings.dark} height={360} testId="chart-attribution" /> : <Empty description={t('attribution.empty')} />}
          </Card>
        </Col>
        <Col xs={24} lg={14}>
          <Card>
            <DataTable<Attribution>
              id="report-attribution"
              api={reportUrls.attribution}
              params={filterParams(filter)}
              columns={columns}
              pagination={false}
              rowKey={(r) => `${r.id}:${r.label}`}
              onLoad={(list) => setRows([...list.rows])}
              toolbar={<ExportButton report="attribution" filter={filter} />}
            />
          </Card>
        </Col>
      </Row>
    </div>
  );
}
