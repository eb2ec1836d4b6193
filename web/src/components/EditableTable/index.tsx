/**
 * Editable table (SPEC §2): rows edited in place, added and removed; required cells are checked by
 * `validate()` (through the ref) and when left empty after an edit.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, DatePicker, Input, InputNumber, Popconfirm, Select, Switch, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import dayjs from 'dayjs';
import { useEffect, useImperativeHandle, useRef, useState, type ReactNode, type Ref } from 'react';
import { useWidgetsT } from '../i18n';

export type CellEditor = 'input' | 'number' | 'select' | 'switch' | 'date' | 'readonly';

export interface EditableColumn<T> {
  title: ReactNode;
  dataIndex: keyof T & string;
  editor?: CellEditor;
  width?: number;
  required?: boolean;
  placeholder?: string;
  options?: { label: ReactNode; value: string | number }[];
  /** Extra check; return an error text or null. */
  validate?: (value: unknown, row: T) => string | null;
  /** Read-only display (editor 'readonly'). */
  render?: (value: unknown, row: T, index: number) => ReactNode;
}

export interface EditableTableRef {
  /** Marks every invalid cell; true when all are valid. */
  validate: () => boolean;
}

export interface EditableTableProps<T extends object> {
  value?: T[];
  onChange?: (rows: T[]) => void;
  columns: EditableColumn<T>[];
  /** Values of a new row. */
  newRow?: () => Partial<T>;
  /** Most rows (the add button hides at the limit). */
  max?: number;
  disabled?: boolean;
  /** The table's scroll area (wide tables scroll sideways). */
  scroll?: { x?: number; y?: number };
  testId?: string;
  ref?: Ref<EditableTableRef>;
}

interface Keyed<T> {
  key: string;
  data: T;
}

let seq = 0;
const key = () => `er-${++seq}`;

function isEmpty(v: unknown): boolean {
  return v === undefined || v === null || (typeof v === 'string' && v.trim() === '') || (Array.isArray(v) && v.length === 0);
}

export default function EditableTable<T extends object>({
  value,
  onChange,
  columns,
  newRow,
  max,
  disabled,
  scroll,
  testId = 'editable',
  ref,
}: EditableTableProps<T>) {
  const { t } = useWidgetsT();
  const [rows, setRows] = useState<Keyed<T>[]>(() => (value ?? []).map((data) => ({ key: key(), data })));
  const [touched, setTouched] = useState<Set<string>>(new Set());
  const lastEmitted = useRef<T[] | undefined>(value);

  // a value from outside (not the one we just emitted) replaces the rows
  useEffect(() => {
    if (value === lastEmitted.current) return;
    lastEmitted.current = value;
    setRows((value ?? []).map((data) => ({ key: key(), data })));
    setTouched(new Set());
  }, [value]);

  const commit = (next: Keyed<T>[]) => {
    setRows(next);
    const data = next.map((r) => r.data);
    lastEmitted.current = data;
    onChange?.(data);
  };

  const errorOf = (col: EditableColumn<T>, row: T): string | null => {
    const v = row[col.dataIndex];
    if (col.required && isEmpty(v)) return t('editable.required', { name: typeof col.title === 'string' ? col.title : col.dataIndex });
    return col.validate ? col.validate(v, row) : null;
  };

  useImperativeHandle(ref, () => ({
    validate: () => {
      const all = new Set<string>();
      let ok = true;
      for (const r of rows)
        for (const c of columns) {
          all.add(`${r.key}:${c.dataIndex}`);
          if (errorOf(c, r.data)) ok = false;
        }
      setTouched(all);
      return ok;
    },
  }));

  const setCell = (rowKey: string, field: keyof T & string, v: unknown) => {
    setTouched((s) => new Set(s).add(`${rowKey}:${field}`));
    commit(rows.map((r) => (r.key === rowKey ? { ...r, data: { ...r.data, [field]: v } } : r)));
  };

  const cell = (col: EditableColumn<T>, row: Keyed<T>, index: number) => {
    const v = row.data[col.dataIndex] as unknown;
    const error = touched.has(`${row.key}:${col.dataIndex}`) ? errorOf(col, row.data) : null;
    const status = error ? ('error' as const) : undefined;
    const id = `${testId}-cell-${index}-${col.dataIndex}`;
    let editor: ReactNode;
    switch (col.editor ?? 'input') {
      case 'readonly':
        editor = col.render ? col.render(v, row.data, index) : String(v ?? '');
        break;
      case 'number':
        editor = (
          <InputNumber
            style={{ width: '100%' }}
            status={status}
            disabled={disabled}
            placeholder={col.placeholder}
            value={(v as number | null) ?? null}
            onChange={(n) => setCell(row.key, col.dataIndex, n ?? undefined)}
            data-testid={id}
          />
        );
        break;
      case 'select':
        editor = (
          <Select
            style={{ width: '100%' }}
            status={status}
            disabled={disabled}
            placeholder={col.placeholder}
            value={v as never}
            options={col.options}
            onChange={(n) => setCell(row.key, col.dataIndex, n)}
            data-testid={id}
          />
        );
        break;
      case 'switch':
        editor = <Switch disabled={disabled} checked={Boolean(v)} onChange={(n) => setCell(row.key, col.dataIndex, n)} data-testid={id} />;
        break;
      case 'date':
        editor = (
          <DatePicker
            style={{ width: '100%' }}
            status={status}
            disabled={disabled}
            value={v ? dayjs(String(v)) : null}
            onChange={(d) => setCell(row.key, col.dataIndex, d ? d.format('YYYY-MM-DD') : undefined)}
            data-testid={id}
          />
        );
        break;
      default:
        editor = (
          <Input
            status={status}
            disabled={disabled}
            placeholder={col.placeholder}
            value={(v as string | undefined) ?? ''}
            onChange={(e) => setCell(row.key, col.dataIndex, e.target.value)}
            data-testid={id}
          />
        );
    }
    return (
      <div>
        {editor}
        {error ? (
          <div className="ant-form-item-explain-error" style={{ fontSize: 12 }} data-testid={`${id}-error`}>
            {error}
          </div>
        ) : null}
      </div>
    );
  };

  const tableColumns: ColumnsType<Keyed<T>> = [
    ...columns.map((col) => ({
      title: col.required ? (
        <span>
          <span style={{ color: '#ff4d4f', marginRight: 4 }}>*</span>
          {col.title}
        </span>
      ) : (
        col.title
      ),
      key: col.dataIndex,
      width: col.width,
      render: (_: unknown, row: Keyed<T>, index: number) => cell(col, row, index),
    })),
    ...(disabled
      ? []
      : [
          {
            title: t('common:actions'),
            key: '__actions',
            width: 80,
            render: (_: unknown, row: Keyed<T>, index: number) => (
              <Popconfirm
                title={t('editable.removeConfirm')}
                onConfirm={() => commit(rows.filter((r) => r.key !== row.key))}
                okText={t('common:delete')}
                cancelText={t('common:cancel')}
                okButtonProps={{ 'data-testid': `${testId}-remove-ok` }}
              >
                <Button type="text" danger icon={<DeleteOutlined />} aria-label={t('common:delete')} data-testid={`${testId}-remove-${index}`} />
              </Popconfirm>
            ),
          },
        ]),
  ];

  const full = max !== undefined && rows.length >= max;

  return (
    <div data-testid={testId}>
      <Table<Keyed<T>> size="small" rowKey="key" columns={tableColumns} dataSource={rows} pagination={false} scroll={scroll} locale={{ emptyText: t('common:table.noData') }} />
      {!disabled && !full ? (
        <Button
          type="dashed"
          block
          icon={<PlusOutlined />}
          style={{ marginTop: 8 }}
          onClick={() => commit([...rows, { key: key(), data: { ...(newRow?.() ?? {}) } as T }])}
          data-testid={`${testId}-add`}
        >
          {t('editable.add')}
        </Button>
      ) : null}
    </div>
  );
}
