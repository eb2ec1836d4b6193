/** The draw log: who drew, through what, and what they won; filtered by activity and the drawer, exported as shown. */
import { Select, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { activitiesKeys, activityUrls, exportDraws } from '@/api/activities';
import type { Draw } from '@/api/activities/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import type { FilterObj } from '@/components/FilterDrawer/model';
import { formatTime } from '@/utils/format';
import { drawFilterFields } from '../filters';
import { useActivitiesT } from '../i18n';
import ExportButtons from '../shared/ExportButtons';
import { useActivityOptions } from '../shared/useActivityOptions';

export default function DrawsTab() {
  const { t } = useActivitiesT();
  const { options, loading } = useActivityOptions();
  const [activityId, setActivityId] = useState<number | undefined>(undefined);
  const [filterObj, setFilterObj] = useState<FilterObj>({});

  const columns = useMemo<DataTableColumn<Draw>[]>(
    () => [
      { title: t('draw.at'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      { title: t('draw.activity'), dataIndex: 'activity_name', width: 180 },
      {
        title: t('draw.person'),
        dataIndex: 'person',
        width: 130,
        render: (v: string) => <Typography.Text code>{v}</Typography.Text>,
      },
      {
        title: t('draw.source'),
        dataIndex: 'source',
        width: 180,
        render: (_, row) =>
          row.source === 'nfc' ? (
            <Space size={4}>
              <Tag color="purple">{t('source.nfc')}</Tag>
              {row.tag_name}
            </Space>
          ) : (
            <Tag>{t('source.page')}</Tag>
          ),
      },
      {
        title: t('draw.result'),
        dataIndex: 'won',
        width: 200,
        render: (_, row) =>
          row.won ? (
            <Tag color="green" data-testid={`draw-result-${row.id}`}>
              {t('draw.wonPrize', { prize: row.prize_name })}
            </Tag>
          ) : (
            <Tag data-testid={`draw-result-${row.id}`}>{row.prize_name || t('draw.lost')}</Tag>
          ),
      },
      {
        title: t('draw.coupon'),
        dataIndex: 'coupon_code',
        width: 150,
        render: (v: string) => (v ? <Typography.Text code copyable>{v}</Typography.Text> : ''),
      },
    ],
    [t],
  );
  const filterFields = useMemo(() => drawFilterFields(t), [t]);
  const params = useMemo(() => (activityId ? { activity_id: activityId } : undefined), [activityId]);

  return (
    <DataTable<Draw>
      id="draws"
      queryKey={activitiesKeys.all}
      api={activityUrls.draws}
      method="post"
      params={params}
      columns={columns}
      filterFields={filterFields}
      onFilterChange={setFilterObj}
      scrollX={1010}
      toolbar={
        <Space wrap>
          <Select<number>
            allowClear
            showSearch={{ optionFilterProp: 'label' }}
            loading={loading}
            placeholder={t('draw.allActivities')}
            options={options}
            value={activityId}
            onChange={(v) => setActivityId(v ?? undefined)}
            style={{ width: 220 }}
            data-testid="draws-activity"
          />
          <ExportButtons onExport={(format) => exportDraws(format, { activity_id: activityId, filterObj })} />
        </Space>
      }
    />
  );
}
