/**
 * A release batch before it becomes a task: the rows read from the uploaded sheet in an editable
 * table (BatchTable) with their errors, a name, "Check" (the server's rules, nothing stored) and
 * "Create the task" (one task of these rows; refused with every bad row named while one is wrong).
 */
import { Alert, Button, Form, Input, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { matrixKeys, submitBatch } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { BatchRow, BatchRowError, BatchSheet, Task } from '@/api/matrix/types';
import { rowErrorsOf } from '@/components/DataTable/ImportButton';
import { FullscreenModal } from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import BatchTable from './BatchTable';

export interface BatchImportProps {
  /** The read sheet (null: closed). */
  sheet: BatchSheet | null;
  onClose: () => void;
  onCreated: (task: Task, count: number) => void;
}

const stem = (file: string) => file.replace(/\.[^.]*$/, '').slice(0, 50);

export default function BatchImport({ sheet, onClose, onCreated }: BatchImportProps) {
  const { t } = useMatrixT();
  const [name, setName] = useState('');
  const [rows, setRows] = useState<BatchRow[]>([]);
  const [errors, setErrors] = useState<BatchRowError[]>([]);
  const [message, setMessage] = useState('');
  const [busy, setBusy] = useState(false);
  const [nameError, setNameError] = useState(false);
  // a created task marks the area stale: the task list reads again
  const write = useWrite((r: { name: string; rows: BatchRow[]; check: boolean }) => submitBatch(r.name, r.rows, r.check), matrixKeys.all);
  useEffect(() => {
    if (!sheet) return;
    setName(stem(sheet.file_name));
    setRows(sheet.rows);
    setErrors(sheet.errors);
    setMessage('');
  }, [sheet]);

  const send = async (check: boolean) => {
    if (!check && !name.trim()) {
      setNameError(true);
      return;
    }
    setBusy(true);
    setMessage('');
    try {
      const r = await write.mutateAsync({ name: name.trim(), rows, check });
      setErrors(r.errors);
      if (check) {
        if (!r.errors.length) feedback.success(t('batch.checked'));
      } else if (r.task) {
        onCreated(r.task, rows.length);
      }
    } catch (e) {
      setErrors(rowErrorsOf(e));
      setMessage(e instanceof Error ? e.message.split(/[:：]/)[0] : String(e));
    } finally {
      setBusy(false);
    }
  };

  return (
    <FullscreenModal
      open={sheet !== null}
      title={t('batch.title')}
      width={1200}
      onCancel={onClose}
      testId="batch-dialog"
      footer={
        <Space>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button loading={busy} onClick={() => void send(true)} data-testid="batch-check">
            {t('batch.check')}
          </Button>
          <Button type="primary" loading={busy} disabled={!rows.length} onClick={() => void send(false)} data-testid="batch-submit">
            {t('batch.submit')}
          </Button>
        </Space>
      }
    >
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        <Form layout="inline">
          <Form.Item label={t('batch.name')} required validateStatus={nameError ? 'error' : undefined} help={nameError ? t('batch.nameRequired') : undefined}>
            <Input
              value={name}
              maxLength={50}
              style={{ width: 320 }}
              onChange={(e) => {
                setName(e.target.value);
                setNameError(false);
              }}
              data-testid="batch-name"
            />
          </Form.Item>
          <Form.Item>
            <Typography.Text type="secondary" data-testid="batch-count">
              {t('batch.rows', { count: rows.length })}
            </Typography.Text>
          </Form.Item>
        </Form>
        {errors.length ? <Alert type="error" showIcon title={message || t('batch.errors', { count: new Set(errors.map((e) => e.row)).size })} data-testid="batch-errors" /> : null}
        <BatchTable
          value={rows}
          errors={errors}
          disabled={busy}
          onChange={(next, left) => {
            setRows(next);
            setErrors(left);
          }}
        />
      </Space>
    </FullscreenModal>
  );
}
