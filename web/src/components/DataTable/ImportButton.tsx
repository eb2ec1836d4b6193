/**
 * "Import" beside a list's "Export": a dialog that downloads the import's template (Excel / CSV, its
 * header in the console's language) and uploads a filled sheet (multipart `file`) to the import's
 * call. The server checks the sheet as a whole; a refused sheet (422) lists its bad rows
 * (`data.rows`: row, column, message) here, and nothing was saved. `onDone` gets the answer's data.
 */
import { DownloadOutlined, UploadOutlined } from '@ant-design/icons';
import { Alert, Button, Modal, Space, Typography, Upload } from 'antd';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { download, request, RequestError } from '@/api/request';
import { EXPORT_TIMEOUT_MS } from './ExportButton';

/** One bad cell of a sheet, as the server words it. */
export interface ImportRowError {
  row: number;
  column: string;
  column_name: string;
  message: string;
}

/** The bad rows of a refused import (a 422's `data.rows`), or none. */
export const rowErrorsOf = (e: unknown): ImportRowError[] => {
  const data = e instanceof RequestError ? (e.data as { rows?: unknown } | undefined) : undefined;
  return Array.isArray(data?.rows) ? (data.rows as ImportRowError[]) : [];
};

/** Uploads a sheet (`file`, plus text `fields`) to an import call; resolves with its data. */
export const uploadSheet = <T,>(api: string, file: File, fields: Record<string, string> = {}) => {
  const form = new FormData();
  for (const [k, v] of Object.entries(fields)) form.append(k, v);
  form.append('file', file);
  return request<T>({ url: api, method: 'POST', data: form, silent: true, timeout: EXPORT_TIMEOUT_MS });
};

export interface ImportButtonProps<T> {
  /** The upload call (multipart `file`). */
  api: string;
  /** The template's call (GET, `format=xlsx|csv`). */
  templateApi: string;
  /** Text fields sent with the file. */
  fields?: Record<string, string>;
  /** The answer's data (the caller reloads its list, or opens the rows for editing). */
  onDone: (data: T) => void;
  /** The template's file name when the server gives none. */
  name?: string;
  label?: ReactNode;
  /** Extra words under the steps (what the import does with unknown names, …). */
  hint?: ReactNode;
  testId?: string;
}

export default function ImportButton<T>({ api, templateApi, fields, onDone, name = 'template', label, hint, testId = 'import' }: ImportButtonProps<T>) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState('');
  const [rows, setRows] = useState<ImportRowError[]>([]);
  const close = () => {
    setOpen(false);
    setMessage('');
    setRows([]);
  };
  const send = async (file: File) => {
    setBusy(true);
    setMessage('');
    setRows([]);
    try {
      const data = await uploadSheet<T>(api, file, fields);
      close();
      onDone(data);
    } catch (e) {
      setMessage(e instanceof Error ? e.message : String(e));
      setRows(rowErrorsOf(e));
    } finally {
      setBusy(false);
    }
  };
  const template = (format: 'xlsx' | 'csv') => download(templateApi, { format }, `${name}.${format}`).catch(() => undefined);
  return (
    <>
      <Button icon={<UploadOutlined />} onClick={() => setOpen(true)} data-testid={testId}>
        {label ?? t('table.import')}
      </Button>
      <Modal open={open} title={t('table.importTitle')} footer={null} onCancel={close} destroyOnHidden width={640}>
        <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid={`${testId}-dialog`}>
          <Typography.Text>{t('table.importTemplate')}</Typography.Text>
          <Space>
            <Button icon={<DownloadOutlined />} onClick={() => void template('xlsx')} data-testid={`${testId}-template-xlsx`}>
              {t('table.importTemplateXlsx')}
            </Button>
            <Button icon={<DownloadOutlined />} onClick={() => void template('csv')} data-testid={`${testId}-template-csv`}>
              {t('table.importTemplateCsv')}
            </Button>
          </Space>
          <Typography.Text>{t('table.importUpload')}</Typography.Text>
          {hint ? <Typography.Text type="secondary">{hint}</Typography.Text> : null}
          <Upload
            accept=".xlsx,.csv,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"
            showUploadList={false}
            beforeUpload={(file) => {
              void send(file);
              return false;
            }}
          >
            <Button type="primary" icon={<UploadOutlined />} loading={busy} data-testid={`${testId}-pick`}>
              {t('table.importPick')}
            </Button>
          </Upload>
          {message ? (
            <Alert
              type="error"
              showIcon
              title={rows.length ? message.split(/[:：]/)[0] : message}
              description={
                rows.length ? (
                  <ul style={{ margin: 0, paddingInlineStart: 18, maxHeight: 240, overflow: 'auto' }} data-testid={`${testId}-errors`}>
                    {rows.map((r, i) => (
                      <li key={i}>{t('table.importRowError', { row: r.row, column: r.column_name, message: r.message })}</li>
                    ))}
                  </ul>
                ) : undefined
              }
            />
          ) : null}
        </Space>
      </Modal>
    </>
  );
}
