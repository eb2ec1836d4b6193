/**
 * The paginated data table of every list page (SPEC §2, §4 "Table", §8, §9): page sizes 10-50, pagination
 * layout total/sizes/prev/pager/next/jumper, request params page/pageSize/prop/order, the empty area
 * texts of the error catalogue, column settings (session storage) and table settings popovers.
 */
import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { Button, Checkbox, Empty, Pagination, Popover, Radio, Select, Space, Switch, Table, Tooltip } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import type { SorterResult } from 'antd/es/table/interface';
import { useEffect, useImperativeHandle, useMemo, useRef, useState, type Key, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError, request } from '@/api/request';
import type { SortOrder } from '@/api/types';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@/config';
import { feedback } from '@/utils/feedback';
import { sessionStore } from '@/utils/storage';
import { emptyTextForError, normalizeList, type NormalizedList } from './normalize';

export type DataTableColumn<T> = ColumnsType<T>[number] & { hide?: boolean };
export type TableSize = 'large' | 'middle' | 'small';

export interface DataTableRef {
  /** Back to page 1; clears selection, sort and filters. */
  reload: () => void;
  /** Loads the current page again. */
  refresh: () => void;
}

export interface DataTableProps<T> {
  /** Used for test ids and the column-settings key. */
  id: string;
  /** Call path under /api. */
  api: string;
  method?: 'get' | 'post';
  /** Extra filter params; a change goes back to page 1. */
  params?: Record<string, unknown>;
  columns: DataTableColumn<T>[];
  rowKey?: string | ((row: T) => Key);
  /** false: one unpaginated load (page and pageSize are not sent). */
  pagination?: boolean;
  /** Summary row content (label 'total' is given as the first cell by SummaryRow). */
  summary?: (summary: Record<string, number> | undefined, rows: readonly T[]) => ReactNode;
  toolbar?: ReactNode;
  selectable?: boolean;
  onSelectionChange?: (keys: Key[], rows: T[]) => void;
  expandable?: TableProps<T>['expandable'];
  /** Tree data: open every row that has children once loaded. Empty `children` arrays are dropped. */
  expandAll?: boolean;
  scrollX?: number | string;
  ref?: Ref<DataTableRef>;
}

interface SortState {
  prop?: string;
  order?: SortOrder;
}

function columnKey<T>(col: DataTableColumn<T>, index: number): string {
  const c = col as { key?: Key; dataIndex?: unknown };
  if (c.key !== undefined) return String(c.key);
  if (Array.isArray(c.dataIndex)) return c.dataIndex.join('.');
  if (c.dataIndex !== undefined) return String(c.dataIndex);
  return `col_${index}`;
}

export default function DataTable<T extends object>({
  id,
  api,
  method = 'get',
  params,
  columns,
  rowKey = 'id',
  pagination = true,
  summary,
  toolbar,
  selectable,
  onSelectionChange,
  expandable,
  expandAll,
  scrollX,
  ref,
}: DataTableProps<T>) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [pageSize, setPageSize] = useState(DEFAULT_PAGE_SIZE);
  const [sort, setSort] = useState<SortState>({});
  const [nonce, setNonce] = useState(0);
  const [selected, setSelected] = useState<Key[]>([]);
  const [size, setSize] = useState<TableSize>('large');
  const [bordered, setBordered] = useState(false);
  const [striped, setStriped] = useState(false);

  const settingsKey = `table_columns_${id}`;
  const defaultHidden = useMemo(() => columns.map(columnKey).filter((_, i) => columns[i].hide), [columns]);
  const [hidden, setHidden] = useState<string[]>(() => sessionStore.get<string[]>(settingsKey) ?? defaultHidden);
  const [savingColumns, setSavingColumns] = useState(false);

  const paramsKey = JSON.stringify(params ?? {});
  const firstParams = useRef(true);
  useEffect(() => {
    if (firstParams.current) {
      firstParams.current = false;
      return;
    }
    setPage(1);
    setSelected([]);
  }, [paramsKey]);

  const query = useQuery<NormalizedList<T>>({
    queryKey: ['table', id, api, method, paramsKey, pagination ? page : 0, pagination ? pageSize : 0, sort.prop, sort.order, nonce],
    queryFn: async ({ signal }) => {
      const body: Record<string, unknown> = { ...(params ?? {}) };
      if (pagination) {
        body.page = page;
        body.pageSize = pageSize;
      }
      if (sort.prop && sort.order) {
        body.prop = sort.prop;
        body.order = sort.order;
      }
      const data =
        method === 'get'
          ? await request<unknown>({ url: api, method: 'GET', params: body, signal })
          : await request<unknown>({ url: api, method: 'POST', data: body, signal });
      const list = normalizeList<T>(data);
      if (!list) throw new RequestError('format', t('table.formatError'));
      return list;
    },
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

  const reload = () => {
    setPage(1);
    setSort({});
    setSelected([]);
    onSelectionChange?.([], []);
    setNonce((n) => n + 1);
  };
  const refresh = () => setNonce((n) => n + 1);
  useImperativeHandle(ref, () => ({ reload, refresh }));

  const rows = useMemo(() => {
    const list = query.isError ? [] : (query.data?.rows ?? []);
    return expandAll ? pruneChildren(list) : list;
  }, [query.isError, query.data, expandAll]);
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  useEffect(() => {
    if (expandAll) setExpanded(parentKeys(rows, rowKey));
  }, [expandAll, rows, rowKey]);
  const total = query.isError ? 0 : (query.data?.total ?? 0);
  const emptyText = query.isError ? emptyTextForError(query.error, t('table.formatError')) : t('table.noData');

  const visibleColumns = useMemo(
    () =>
      columns
        .map((col, i) => ({ col, key: columnKey(col, i) }))
        .filter(({ key }) => !hidden.includes(key))
        .map(({ col, key }) => {
          const c = { ...col, key } as DataTableColumn<T> & { sortOrder?: 'ascend' | 'descend' | null; sorter?: unknown };
          if (c.sorter) c.sortOrder = sort.prop === key ? (sort.order === 'ascending' ? 'ascend' : 'descend') : null;
          delete (c as { hide?: boolean }).hide;
          return c;
        }),
    [columns, hidden, sort],
  );

  const onTableChange: TableProps<T>['onChange'] = (_p, _f, sorter) => {
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const prop = s?.order ? String(s.columnKey ?? s.field ?? '') : undefined;
    setSort(prop ? { prop, order: s?.order === 'ascend' ? 'ascending' : 'descending' } : {});
    setPage(1);
  };

  const saveColumns = async () => {
    setSavingColumns(true);
    try {
      sessionStore.set(settingsKey, hidden);
      feedback.success(t('table.saveSuccess'));
    } catch {
      feedback.error(t('table.saveFailed'));
    } finally {
      setSavingColumns(false);
    }
  };
  const resetColumns = async () => {
    setSavingColumns(true);
    try {
      sessionStore.remove(settingsKey);
      setHidden(defaultHidden);
      feedback.success(t('table.resetSuccess'));
    } catch {
      feedback.error(t('table.resetFailed'));
    } finally {
      setSavingColumns(false);
    }
  };

  const columnSettings = (
    <div style={{ width: 500, maxWidth: '80vw' }} data-testid={`${id}-column-settings`}>
      <Checkbox.Group
        value={columns.map(columnKey).filter((k) => !hidden.includes(k))}
        onChange={(shown) => setHidden(columns.map(columnKey).filter((k) => !shown.includes(k)))}
      >
        <Space wrap>
          {columns.map((col, i) => (
            <Checkbox key={columnKey(col, i)} value={columnKey(col, i)}>
              {(col.title as ReactNode) ?? columnKey(col, i)}
            </Checkbox>
          ))}
        </Space>
      </Checkbox.Group>
      <div style={{ marginTop: 12, textAlign: 'right' }}>
        <Space>
          <Button size="small" onClick={resetColumns} loading={savingColumns}>
            {t('reset')}
          </Button>
          <Button size="small" type="primary" onClick={saveColumns} loading={savingColumns}>
            {t('save')}
          </Button>
        </Space>
      </div>
    </div>
  );

  const tableSettings = (
    <div style={{ width: 400, maxWidth: '80vw' }} data-testid={`${id}-table-settings`}>
      <Space orientation="vertical" style={{ width: '100%' }}>
        <Radio.Group value={size} onChange={(e) => setSize(e.target.value as TableSize)} optionType="button">
          <Radio value="large">{t('table.sizeLarge')}</Radio>
          <Radio value="middle">{t('table.sizeDefault')}</Radio>
          <Radio value="small">{t('table.sizeSmall')}</Radio>
        </Radio.Group>
        <Space>
          <Switch size="small" checked={bordered} onChange={setBordered} />
          {t('table.bordered')}
        </Space>
        <Space>
          <Switch size="small" checked={striped} onChange={setStriped} />
          {t('table.striped')}
        </Space>
      </Space>
    </div>
  );

  const keyOf = (row: T): Key =>
    typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, unknown>)[rowKey] as Key);

  return (
    <div className="cm-data-table" data-testid={`${id}-table`}>
      <div className="cm-data-table-toolbar">
        <div className="cm-data-table-toolbar-left">{toolbar}</div>
        <Space>
          <Tooltip title={t('table.reload')}>
            <Button icon={<ReloadOutlined />} onClick={reload} data-testid={`${id}-reload`} aria-label={t('table.reload')} />
          </Tooltip>
          <Popover trigger="click" placement="bottomRight" title={t('table.columnSettings')} content={columnSettings}>
            <Button icon={<SettingOutlined />} aria-label={t('table.columnSettings')} />
          </Popover>
          <Popover trigger="click" placement="bottomRight" title={t('table.tableSettings')} content={tableSettings}>
            <Button icon={<ColumnHeightOutlined />} aria-label={t('table.tableSettings')} />
          </Popover>
        </Space>
      </div>
      <Table<T>
        columns={visibleColumns as ColumnsType<T>}
        dataSource={rows}
        rowKey={rowKey as TableProps<T>['rowKey']}
        loading={query.isFetching}
        pagination={false}
        size={size}
        bordered={bordered}
        scroll={scrollX ? { x: scrollX } : undefined}
        expandable={expandAll ? { ...expandable, expandedRowKeys: expanded, onExpandedRowsChange: setExpanded } : expandable}
        onChange={onTableChange}
        rowClassName={(_, index) => (striped && index % 2 === 1 ? 'cm-row-striped' : '')}
        onRow={(row) => ({ 'data-testid': `${id}-row-${String(keyOf(row))}` }) as React.HTMLAttributes<HTMLElement>}
        rowSelection={
          selectable
            ? {
                selectedRowKeys: selected,
                onChange: (keys, selectedRows) => {
                  setSelected(keys);
                  onSelectionChange?.(keys, selectedRows);
                },
              }
            : undefined
        }
        locale={{
          emptyText: (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={<span data-testid={`${id}-empty`}>{emptyText}</span>} />
          ),
        }}
        summary={summary && rows.length ? () => summary(query.data?.summary, rows) : undefined}
      />
      {pagination ? (
        <div className="cm-data-table-pagination" data-testid={`${id}-pagination`}>
          <span className="cm-data-table-total" data-testid={`${id}-total`}>
            {t('table.total', { total })}
          </span>
          <Select<number>
            size="small"
            value={pageSize}
            style={{ width: 110 }}
            data-testid={`${id}-page-size`}
            options={PAGE_SIZES.map((s) => ({ value: s, label: t('table.perPage', { size: s }) }))}
            onChange={(s) => {
              setPageSize(s);
              setPage(1);
            }}
          />
          <Pagination
            size="small"
            current={page}
            pageSize={pageSize}
            total={total}
            showSizeChanger={false}
            showQuickJumper
            onChange={(p) => setPage(p)}
          />
        </div>
      ) : null}
    </div>
  );
}

type TreeRow = { children?: unknown[] };

function pruneChildren<T>(rows: readonly T[]): T[] {
  return rows.map((row) => {
    const children = (row as TreeRow).children;
    if (!Array.isArray(children)) return row;
    if (!children.length) {
      const copy = { ...row } as TreeRow;
      delete copy.children;
      return copy as T;
    }
    return { ...row, children: pruneChildren(children as T[]) };
  });
}

function parentKeys<T>(rows: readonly T[], rowKey: string | ((row: T) => Key)): Key[] {
  return rows.flatMap((row) => {
    const children = (row as TreeRow).children;
    if (!Array.isArray(children) || !children.length) return [];
    const key = typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, unknown>)[rowKey] as Key);
    return [key, ...parentKeys(children as T[], rowKey)];
  });
}

/** Summary row whose first cell reads 'total'; `cells` fill the following columns in order. */
export function SummaryRow({ cells, offset = 0 }: { cells: ReactNode[]; offset?: number }) {
  const { t } = useTranslation();
  return (
    <Table.Summary.Row data-testid="table-summary">
      <Table.Summary.Cell index={0} colSpan={offset + 1}>
        <strong>{t('table.summaryTotal')}</strong>
      </Table.Summary.Cell>
      {cells.map((cell, i) => (
        <Table.Summary.Cell key={i} index={i + 1 + offset}>
          {cell}
        </Table.Summary.Cell>
      ))}
    </Table.Summary.Row>
  );
}
