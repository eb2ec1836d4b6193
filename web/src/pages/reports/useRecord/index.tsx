import { Select, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authUrls } from '@/api/auth';
import type { UsageRecord } from '@/api/auth/types';
import DataTable, { SummaryRow } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { usageColumns } from './columns';
import { usageFilterFields } from './filters';

export default function UseRecordPage() {
  const { t } = useTranslation('reports');
  const [type, setType] = useState<string | undefined>();
  const columns = useMemo(() => usageColumns(t), [t]);
  const filterFields = useMemo(() => usageFilterFields(t), [t]);

  return (
    <>
      <PageHeader title={t('common:menu.useRecord')} subTitle={t('useRecord.subtitle')} />
      <DataTable<UsageRecord>
        id="usage"
        api={authUrls.usageRecords}
        exportApi={authUrls.usageExport}
        params={type ? { type } : undefined}
        columns={columns}
        filterFields={filterFields}
        toolbar={
          <Select
            allowClear
            placeholder={t('useRecord.kind')}
            style={{ width: 180 }}
            value={type}
            onChange={setType}
            data-testid="usage-filter-kind"
            options={(['topup', 'deduct', 'refund'] as const).map((k) => ({ value: k, label: t(`useRecord.kinds.${k}`) }))}
          />
        }
        summary={(summary) => (
          <SummaryRow
            offset={1}
            cells={[
              <Space key="sum" size="large" data-testid="usage-summary">
                <Typography.Text type="success">
                  {t('useRecord.kinds.topup')}: +{summary?.topup ?? 0}
                </Typography.Text>
                <Typography.Text type="danger">
                  {t('useRecord.kinds.deduct')}: -{Math.abs(summary?.deduct ?? 0)}
                </Typography.Text>
              </Space>,
            ]}
          />
        )}
      />
    </>
  );
}
