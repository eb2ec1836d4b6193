/**
 * Paged table-select dropdown (SPEC §2, §3 "Table-select response: data.rows, data.total", §9
 * "Table-select: page size 20, table height 245, width 400"): a select whose dropdown is a paged
 * table loaded from a list call, with remote search.
 */
import { useQuery, keepPreviousData } from '@tanstack/react-query';
import { Input, Select, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useEffect, useMemo, useRef, useState } from 'react';
import { request } from '@/api/request';
import { useWidgetsT } from '../i18n';

export const TABLE_SELECT_PAGE_SIZE = 20;
export const TABLE_SELECT_HEIGHT = 245;
export const TABLE_SELECT_WIDTH = 400;

type Row = Record<string, unknown>;
type Id = string | number;

export interface TableSelectProps<T extends Row = Row> {
  /** List call under /api answering {rows, total}. */
  api: string;
  method?: 'get' | 'post';
  columns: ColumnsType<T>;
  value?: Id | Id[];
  onChange?: (value: Id | Id[] | undefined, rows: T[]) => void;
  /** Row field used as the value (default 'id'). */
  valueKey?: string;
  /** Row field shown in the select (default 'name'). */
  labelKey?: string;
  multiple?: boolean;
  /** Extra params of every request. */
  params?: Record<string, unknown>;
  /**
   * How the search text is sent. A string names a filterable field: the text goes out as
   * `filterObj: {field: 'text|include'}`. A function builds the params itself. Default 'name'.
   */
  search?: string | ((text: string) => Record<string, unknown>);
  placeholder?: string;
  disabled?: boolean;
  allowClear?: boolean;
  testId?: string;
}

interface Page<T> {
  rows: T[];
  total: number;
}

export default function TableSelect<T extends Row = Row>({
  api,
  method = 'get',
  columns,
  value,
  onChange,
  valueKey = 'id',
  labelKey = 'name',
  multiple,
  params,
  search = 'name',
  placeholder,
  disabled,
  allowClear = true,
  testId = 'table-select',
}: TableSelectProps<T>) {
  const { t } = useWidgetsT();
  const [open, setOpen] = useState(false);
  const [page, setPage] = useState(1);
  const [text, setText] = useState('');
  const [debounced, setDebounced] = useState('');
  const known = useRef(new Map<Id, T>());

  // A changed search goes out 300 ms after the last key and starts again at page 1; an unchanged one
  // sets no timer (on opening, one used to put the page back to 1 after a quick "next page").
  useEffect(() => {
    const next = text.trim();
    if (next === debounced) return;
    const timer = setTimeout(() => {
      setDebounced(next);
      setPage(1);
    }, 300);
    return () => clearTimeout(timer);
  }, [text, debounced]);

  const query = useQuery<Page<T>>({
    queryKey: ['table-select', api, method, JSON.stringify(params ?? {}), page, debounced],
    enabled: open,
    placeholderData: keepPreviousData,
    queryFn: async ({ signal }) => {
      const body: Record<string, unknown> = { ...(params ?? {}), page, pageSize: TABLE_SELECT_PAGE_SIZE };
      if (debounced) {
        if (typeof search === 'function') Object.assign(body, search(debounced));
        else body.filterObj = { ...((params?.filterObj as object) ?? {}), [search]: `${debounced}|include` };
      }
      const data =
        method === 'get'
          ? await request<unknown>({ url: api, method: 'GET', params: body, signal, silent: true })
          : await request<unknown>({ url: api, method: 'POST', data: body, signal, silent: true });
      const d = (data ?? {}) as { rows?: unknown; total?: unknown };
      if (!Array.isArray(d.rows)) throw new Error(t('common:table.formatError'));
      return { rows: d.rows as T[], total: Number(d.total ?? d.rows.length) || 0 };
    },
  });

  useEffect(() => {
    for (const row of query.data?.rows ?? []) known.current.set(row[valueKey] as Id, row);
  }, [query.data, valueKey]);

  const selectedKeys = useMemo<Id[]>(() => (value === undefined || value === null ? [] : Array.isArray(value) ? value : [value]), [value]);
  const labelOf = (key: Id) => {
    const row = known.current.get(key);
    return row ? String(row[labelKey] ?? key) : String(key);
  };

  const choose = (keys: Id[]) => {
    const rows = keys.map((k) => known.current.get(k)).filter(Boolean) as T[];
    if (multiple) onChange?.(keys, rows);
    else {
      onChange?.(keys[0], rows);
      setOpen(false);
    }
  };

  const popup = (
    <div style={{ width: TABLE_SELECT_WIDTH, padding: 8 }} data-testid={`${testId}-popup`}>
      <Input.Search
        allowClear
        size="small"
        placeholder={t('tableSelect.search')}
        value={text}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={(e) => e.stopPropagation()}
        style={{ marginBottom: 8 }}
        data-testid={`${testId}-search`}
      />
      <Table<T>
        size="small"
        rowKey={(row) => row[valueKey] as Id}
        columns={columns}
        dataSource={query.data?.rows ?? []}
        loading={query.isFetching}
        scroll={{ y: TABLE_SELECT_HEIGHT }}
        locale={{ emptyText: query.isError ? (query.error as Error).message : t('common:table.noData') }}
        rowSelection={{
          type: multiple ? 'checkbox' : 'radio',
          selectedRowKeys: selectedKeys,
          onChange: (keys) => choose(keys as Id[]),
        }}
        onRow={(row) => ({
          onClick: () => {
            const key = row[valueKey] as Id;
            if (multiple) choose(selectedKeys.includes(key) ? selectedKeys.filter((k) => k !== key) : [...selectedKeys, key]);
            else choose([key]);
          },
          'data-testid': `${testId}-row-${String(row[valueKey])}`,
        }) as React.HTMLAttributes<HTMLElement>}
        pagination={{
          current: page,
          pageSize: TABLE_SELECT_PAGE_SIZE,
          total: query.data?.total ?? 0,
          size: 'small',
          showSizeChanger: false,
          simple: true,
          onChange: setPage,
        }}
      />
    </div>
  );

  return (
    <Select<Id | Id[]>
      open={open}
      onOpenChange={setOpen}
      disabled={disabled}
      allowClear={allowClear}
      mode={multiple ? 'multiple' : undefined}
      placeholder={placeholder ?? t('select.placeholder')}
      value={multiple ? selectedKeys : selectedKeys[0]}
      options={selectedKeys.map((k) => ({ value: k, label: labelOf(k) }))}
      onChange={(v) => {
        const keys = v === undefined || v === null ? [] : Array.isArray(v) ? v : [v];
        choose(keys as Id[]);
      }}
      popupMatchSelectWidth={false}
      popupRender={() => popup}
      data-testid={testId}
      style={{ minWidth: 200 }}
    />
  );
}
