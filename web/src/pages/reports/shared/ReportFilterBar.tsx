/**
 * The reports' filter bar: day / week / month / custom range, and the export buttons of the page. The
 * operator also picks a merchant: without one the reports sum every merchant, as the dashboard does.
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, DatePicker, Dropdown, Segmented, Space } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '@/access/AccessContext';
import MerchantPicker, { type PickedMerchant } from '@/pages/system/shared/MerchantPicker';
import { useWrite } from '@/api/mutations';
import { exportReport } from '@/api/reports';
import type { ReportFilter, ReportName, Span } from '@/api/reports/types';

export const SPANS: Span[] = ['day', 'week', 'month', 'custom'];

export function ReportFilterBar({ value, onChange }: { value: ReportFilter; onChange: (f: ReportFilter) => void }) {
  const { t } = useTranslation('reports');
  const operator = useAccess().user?.kind === 'operator';
  const [merchant, setMerchant] = useState<PickedMerchant>();
  return (
    <Space wrap data-testid="report-filter">
      {operator && (
        <Space data-testid="report-merchant">
          <MerchantPicker
            value={merchant}
            onChange={(m) => {
              setMerchant(m);
              onChange({ ...value, merchant_id: m?.id });
            }}
            testId="report-merchant-picker"
          />
          {!merchant && <span data-testid="report-all-merchants">{t('operator.allMerchants')}</span>}
        </Space>
      )}
      <Segmented<Span>
        value={value.span}
        options={SPANS.map((s) => ({ value: s, label: t(`span.${s}`) }))}
        onChange={(span) => onChange({ ...value, span })}
        data-testid="report-span"
      />
      {value.span === 'custom' && (
        <DatePicker.RangePicker
          allowClear={false}
          value={value.start && value.end ? [dayjs(value.start), dayjs(value.end)] : null}
          onChange={(r) => {
            if (r?.[0] && r[1]) onChange({ ...value, start: r[0].format('YYYY-MM-DD'), end: r[1].format('YYYY-MM-DD') });
          }}
          data-testid="report-range"
        />
      )}
    </Space>
  );
}

/** "Export" with the two formats; the file has the filters shown. */
export function ExportButton({ report, filter, extra, testId }: { report: ReportName; filter: ReportFilter; extra?: Record<string, string>; testId?: string }) {
  const { t } = useTranslation('reports');
  // a download, nothing goes stale
  const exporting = useWrite((format: 'xlsx' | 'csv') => exportReport(report, format, filter, extra));
  const busy = exporting.isPending;
  const run = (format: 'xlsx' | 'csv') => exporting.mutate(format);
  return (
    <Dropdown
      menu={{
        items: [
          { key: 'xlsx', label: t('export.xlsx') },
          { key: 'csv', label: t('export.csv') },
        ],
        onClick: ({ key }) => run(key as 'xlsx' | 'csv'),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} data-testid={testId ?? `export-${report}`}>
        {t('export.button')}
      </Button>
    </Dropdown>
  );
}

/** The filter a page starts with: the last 7 days. */
export const initialFilter = (platform?: string): ReportFilter => ({ span: 'week', platform });
