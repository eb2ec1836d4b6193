/**
 * "Export" with Excel and CSV: downloads the list's export call (`api`) with the filters the list
 * shows (`params`, from `listParams`), and spins until the file arrives. Used by `DataTable`'s
 * `exportApi` and by list views that are not a DataTable (a dialog's figures).
 */
import { DownloadOutlined } from '@ant-design/icons';
import { Button, Dropdown } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { download } from '@/api/request';
import { exportParams, type ExportFormat } from './query';

/** Exports of long lists take longer than a call. */
export const EXPORT_TIMEOUT_MS = 120_000;

/** Downloads `api` as `format` with the list's params; the file name comes from the server. */
export const runExport = (api: string, params: Record<string, unknown>, format: ExportFormat, name = 'export') =>
  download(api, exportParams(params, format), `${name}.${format}`, { timeout: EXPORT_TIMEOUT_MS });

export interface ExportButtonProps {
  api: string;
  /** The list's current params (filters and sort). */
  params: Record<string, unknown>;
  /** The file's name when the server gives none. */
  name?: string;
  testId?: string;
}

export default function ExportButton({ api, params, name, testId = 'export' }: ExportButtonProps) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const run = async (format: ExportFormat) => {
    setBusy(true);
    try {
      await runExport(api, params, format, name);
    } catch {
      /* toasted by the request wrapper */
    } finally {
      setBusy(false);
    }
  };
  return (
    <Dropdown
      trigger={['click']}
      disabled={busy}
      menu={{
        items: [
          { key: 'xlsx', label: <span data-testid={`${testId}-xlsx`}>{t('table.exportXlsx')}</span> },
          { key: 'csv', label: <span data-testid={`${testId}-csv`}>{t('table.exportCsv')}</span> },
        ],
        onClick: ({ key }) => void run(key as ExportFormat),
      }}
    >
      <Button icon={<DownloadOutlined />} loading={busy} data-testid={testId}>
        {t('table.export')}
      </Button>
    </Dropdown>
  );
}
