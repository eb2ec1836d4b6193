import { DownloadOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useState } from 'react';
import type { ExportFormat } from '@/api/activities/types';
import { useActivitiesT } from '../i18n';

/** "Export Excel" and "Export CSV": each calls `onExport` with its format and spins until it settles. */
export default function ExportButtons({ onExport }: { onExport: (format: ExportFormat) => Promise<unknown> }) {
  const { t } = useActivitiesT();
  const [busy, setBusy] = useState<ExportFormat | null>(null);
  const run = async (format: ExportFormat) => {
    setBusy(format);
    try {
      await onExport(format);
    } catch {
      /* toasted by the request wrapper */
    } finally {
      setBusy(null);
    }
  };
  return (
    <Space>
      <Button icon={<DownloadOutlined />} loading={busy === 'xlsx'} disabled={busy !== null && busy !== 'xlsx'} onClick={() => void run('xlsx')} data-testid="export-xlsx">
        {t('export.xlsx')}
      </Button>
      <Button icon={<DownloadOutlined />} loading={busy === 'csv'} disabled={busy !== null && busy !== 'csv'} onClick={() => void run('csv')} data-testid="export-csv">
        {t('export.csv')}
      </Button>
    </Space>
  );
}
