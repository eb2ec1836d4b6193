/**
 * A release batch's rows as an editable table (EditableTable): each row one post — its video,
 * account or group, title, topics, @ mentions, time (China time), mount and declaration — with the
 * server's errors shown at their cells. Editing a cell clears its error (the next check tells);
 * rows can be removed and added (an added row takes the next row number, so errors find it).
 */
import { useEffect, useMemo, useRef } from 'react';
import type { BatchRow, BatchRowError, ContentDeclaration, MountType } from '@/api/matrix/types';
import EditableTable, { type EditableColumn, type EditableTableRef } from '@/components/EditableTable';
import { useMatrixT } from '../i18n';

const MOUNTS: MountType[] = ['none', 'poi', 'mini_program', 'official', 'product'];
const DECLARATIONS: ContentDeclaration[] = ['auto', 'none', 'original', 'ai_generated', 'reposted', 'fiction'];

/** The row number a row is known by (the sheet's; added rows get the next free one). */
export const rowNumber = (r: BatchRow, index: number) => r.row ?? index + 2;

/** The errors left after `next` replaced `prev`: those of removed rows and of changed cells go. */
export function errorsAfterEdit(prev: BatchRow[], next: BatchRow[], errors: BatchRowError[]): BatchRowError[] {
  const before = new Map(prev.map((r, i) => [rowNumber(r, i), r]));
  const after = new Map(next.map((r, i) => [rowNumber(r, i), r]));
  return errors.filter((e) => {
    const a = after.get(e.row);
    const b = before.get(e.row);
    if (!a) return false;
    if (!b) return true;
    const key = e.column as keyof BatchRow;
    // an account error may be fixed in the group column and the other way round
    const related: (keyof BatchRow)[] = key === 'account' || key === 'group' ? ['account', 'group'] : key === 'mount_type' ? ['mount_type', 'mount_id', 'mount_title', 'mount_url'] : [key];
    return related.every((k) => a[k] === b[k]);
  });
}

export interface BatchTableProps {
  value: BatchRow[];
  errors: BatchRowError[];
  onChange: (rows: BatchRow[], errors: BatchRowError[]) => void;
  disabled?: boolean;
}

export default function BatchTable({ value, errors, onChange, disabled }: BatchTableProps) {
  const { t } = useMatrixT();
  const table = useRef<EditableTableRef>(null);
  // the server's errors are shown at once (every cell marked as checked)
  useEffect(() => {
    if (errors.length) table.current?.validate();
  }, [errors]);
  const columns = useMemo<EditableColumn<BatchRow>[]>(() => {
    const serverError = (column: string) => (_: unknown, row: BatchRow) => {
      const n = row.row;
      const e = errors.find((x) => x.row === n && x.column === column);
      return e ? e.message : null;
    };
    const col = (dataIndex: keyof BatchRow & string, title: string, width: number, extra: Partial<EditableColumn<BatchRow>> = {}): EditableColumn<BatchRow> => ({
      dataIndex,
      title,
      width,
      validate: serverError(dataIndex),
      ...extra,
    });
    return [
      col('row', t('batch.row'), 64, { editor: 'readonly', validate: undefined }),
      col('video', t('batch.video'), 110),
      col('account', t('batch.account'), 140),
      col('group', t('batch.group'), 120),
      col('title', t('batch.titleCol'), 220),
      col('topics', t('batch.topics'), 180),
      col('at_users', t('batch.atUsers'), 140),
      col('time', t('batch.time'), 170, { placeholder: 'YYYY-MM-DD HH:mm' }),
      col('mount_type', t('batch.mountType'), 140, { editor: 'select', options: MOUNTS.map((m) => ({ value: m, label: t(`mount.${m}`) })) }),
      col('mount_id', t('batch.mountId'), 130),
      col('mount_title', t('batch.mountTitle'), 130),
      col('mount_url', t('batch.mountUrl'), 160),
      col('declaration', t('batch.declaration'), 150, { editor: 'select', options: DECLARATIONS.map((d) => ({ value: d, label: t(`declaration.${d}`) })) }),
    ];
  }, [t, errors]);
  const nextRow = () => Math.max(1, ...value.map((r, i) => rowNumber(r, i))) + 1;
  return (
    <EditableTable<BatchRow>
      ref={table}
      testId="batch-rows"
      columns={columns}
      value={value}
      disabled={disabled}
      scroll={{ x: 2000 }}
      newRow={() => ({ row: nextRow(), mount_type: 'none', declaration: 'auto' })}
      onChange={(rows) => onChange(rows, errorsAfterEdit(value, rows, errors))}
    />
  );
}
