/**
 * The paginated data table of every list page (SPEC §2, §4 "Table", §7 "Shared list calls", §8, §9):
 * page sizes 10-50, pagination layout total/sizes/prev/pager/next/jumper, request params
 * page/pageSize/prop/order plus extra params and the filter drawer's `filterObj`, the empty area texts
 * of the error catalogue, the summary row, the column settings (show/hide, order, width, fixed; session
 * storage) and table settings (size, borders, stripes) popovers, and the 'show' mode.
 */
import { ColumnHeightOutlined, ReloadOutlined, SettingOutlined } from '@ant-design/icons';
import { keepPreviousData, type QueryKey, useQuery } from '@tanstack/react-query';
import { Button, Empty, Pagination, Popover, Radio, Select, Space, Switch, Table, Tooltip } from 'antd';
import type { ColumnsType, TableProps } from 'antd/es/table';
import type { FilterValue as ColumnFilterValue, SorterResult } from 'antd/es/table/interface';
import { lazy, Suspense, useEffect, useImperativeHandle, useMemo, useRef, useState, type Key, type ReactNode, type Ref } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError, request } from '@/api/request';
import type { SortOrder } from '@/api/types';
import { DEFAULT_PAGE_SIZE, PAGE_SIZES } from '@/config';
import { feedback } from '@/utils/feedback';
import FilterTrigger from '../FilterDrawer/FilterTrigger';
import { activeRows, initialRows, type FilterField, type FilterObj, type FilterRow } from '../FilterDrawer/model';
import ColumnSettings from './ColumnSettings';
import ExportButton from './ExportButton';
import ImportButton, { type ImportButtonProps } from './ImportButton';
import { clearSettings, defaultSettings, loadSettings, storeSettings, type ColumnSetting } from './columnSettings';
import { fitHeader, widthSum } from './headerFit';
import { emptyTextForError, normalizeList, type NormalizedList } from './normalize';
import { listParams } from './query';

/** The drawer is loaded on first open (kept out of the page chunks). */
const FilterDrawer = lazy(() => import('../FilterDrawer/FilterDrawer'));

/** How long the column-settings save/reset shows its loading state. */
const SETTINGS_BUSY_MS = 150;

export type DataTableColumn<T> = ColumnsType<T>[number] & { hide?: boolean };
export type TableSize = 'large' | 'middle' | 'small';

export interface DataTableRef {
  /** Back to page 1; clears selection, sort and filters. */
  reload: () => void;
  /** Loads the current page again. */
  refresh: () => void;
  /**
   * Back to page 1 like `reload`, without reading again: after a write that added a row (shown first),
   * the write's stale area key (`queryKey`) reads the rows.
   */
  toFirstPage: () => void;
}

export interface DataTableProps<T> {
  /** Used for test ids and the column-settings key. */
  id: string;
  /** Call path under /api. */
  api: string;
  /**
   * The area's query key the rows are read under (e.g. `matrixKeys.all`): a write that marks the area
   * stale (`useWrite`) reloads the current page, so no page refreshes the table by hand.
   */
  queryKey?: QueryKey;
  method?: 'get' | 'post';
  /** Extra filter params; a change goes back to page 1. A `filterObj` here is merged under the drawer's. */
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
  /** Filter drawer fields (docs/api-lists.md); the drawer's filterObj is sent as `filterObj`. */
  filterFields?: FilterField[];
  /** Scope of the saved common filters (default: the table id). */
  filterScope?: string;
  /** Called with the filterObj each time the filter drawer applies or clears. */
  onFilterChange?: (filterObj: FilterObj) => void;
  /** 'show': each row's text_json is parsed, then its content; the parsed rows go to onShow. */
  mode?: 'show';
  onShow?: (rows: ShowRow[]) => void;
  /** Called with every page the table loads (rows as shown) and the answer as the server gave it. */
  onLoad?: (list: NormalizedList<T>, raw: unknown) => void;
  /** Reshapes the loaded rows before they are shown (e.g. flat rows into a tree for `expandAll`). */
  transform?: (rows: T[]) => T[];
  /**
   * The list's export call (xlsx / CSV): an "Export" button in the toolbar downloads it with the
   * filters and sort shown (`listParams`), never the page.
   */
  exportApi?: string;
  /** The export's file name when the server gives none (default: the table id). */
  exportName?: string;
  /** The list's import (template and upload): an "Import" button beside "Export" (`ImportButton`). */
  importer?: Omit<ImportButtonProps<never>, 'testId'>;
}

export type ShowRow = Record<string, unknown> & { text_json?: unknown; content?: unknown };

function parseJson(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
}

/** 'show' mode: text_json parsed, then its content. */
export function parseShowRow(row: object): ShowRow {
  const textJson = parseJson((row as ShowRow).text_json);
  const inner = textJson && typeof textJson === 'object' ? (textJson as Record<string, unknown>).content : undefined;
  return { ...(row as ShowRow), text_json: textJson, content: inner !== undefined ? parseJson(inner) : (row as ShowRow).content };
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
  queryKey: areaKey,
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
  filterFields,
  filterScope,
  onFilterChange,
  mode,
  onShow,
  onLoad,
  transform,
  exportApi,
  exportName,
  importer,
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

  const [columnFilters, setColumnFilters] = useState<Record<string, ColumnFilterValue | null>>({});

  const columnDefaults = useMemo(() => columns.map((col, i) => ({ ...(col as object), key: columnKey(col, i) }) as DataTableColumn<T> & { key: string }), [columns]);
  const [settings, setSettings] = useState<ColumnSetting[]>(() => loadSettings(id, columnDefaults as never));
  const [savingColumns, setSavingColumns] = useState(false);
  const columnSignature = columnDefaults.map((c) => c.key).join('|');
  const firstColumns = useRef(true);
  useEffect(() => {
    if (firstColumns.current) {
      firstColumns.current = false;
      return;
    }
    setSettings(loadSettings(id, columnDefaults as never));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [id, columnSignature]);

  const [filterRows, setFilterRows] = useState<FilterRow[]>(() => initialRows(filterFields ?? []));
  const [filterObj, setFilterObj] = useState<FilterObj>({});
  const [filterOpen, setFilterOpen] = useState(false);
  const [filterMounted, setFilterMounted] = useState(false);
  const activeFilterCount = useMemo(() => activeRows(filterRows, filterFields ?? []).length, [filterRows, filterFields]);

  const paramsKey = JSON.stringify([params ?? {}, filterObj]);
  const firstParams = useRef(true);
  useEffect(() => {
    if (firstParams.current) {
      firstParams.current = false;
      return;
    }
    setPage(1);
    setSelected([]);
  }, [paramsKey]);

  const tableKey = [...(areaKey ?? []), 'table', id, api, method, paramsKey, pagination ? page : 0, pagination ? pageSize : 0, sort.prop, sort.order, nonce];
  const query = useQuery<NormalizedList<T>>({
    queryKey: tableKey,
    queryFn: async ({ signal }) => {
      const body = listParams(params, filterObj, sort);
      if (pagination) {
        body.page = page;
        body.pageSize = pageSize;
      }
      const data =
        method === 'get'
          ? await request<unknown>({ url: api, method: 'GET', params: body, signal })
          : await request<unknown>({ url: api, method: 'POST', data: body, signal });
      const loaded = normalizeList<T>(data);
      if (!loaded) throw new RequestError('format', t('table.formatError'));
      const list = transform ? { ...loaded, rows: transform(loaded.rows) } : loaded;
      if (mode === 'show') {
        const shown = list.rows.map((row) => parseShowRow(row));
        onShow?.(shown);
        onLoad?.({ ...list, rows: shown as T[] }, data);
        return { ...list, rows: shown as T[] };
      }
      onLoad?.(list, data);
      return list;
    },
    placeholderData: keepPreviousData,
    retry: false,
    staleTime: 0,
  });

  const toFirstPage = () => {
    setPage(1);
    setSort({});
    setColumnFilters({});
    setSelected([]);
    onSelectionChange?.([], []);
  };
  const reload = () => {
    toFirstPage();
    setNonce((n) => n + 1);
  };
  const refresh = () => setNonce((n) => n + 1);
  useImperativeHandle(ref, () => ({ reload, refresh, toFirstPage }));

  const rows = useMemo(() => {
    const list = query.isError ? [] : (query.data?.rows ?? []);
    return expandAll ? pruneChildren(list) : list;
  }, [query.isError, query.data, expandAll]);
  const [expanded, setExpanded] = useState<readonly Key[]>([]);
  useEffect(() => {
    if (expandAll) setExpanded(parentKeys(rows, rowKey));
  }, [expandAll, rows, rowKey]);
  const total = query.isError ? 0 : (query.data?.total ?? 0);
  // A write reads the rows again where they are (`queryKey`): the picked rows it removed leave the
  // selection, and a page it emptied steps back to the last page that has rows. Only a page read again
  // counts: another page, sort or filter is a first read.
  const lastRead = useRef<{ key: string; at: number } | null>(null);
  useEffect(() => {
    const loaded = query.data;
    if (!loaded || query.isPlaceholderData) return;
    const key = JSON.stringify(tableKey);
    const again = lastRead.current?.key === key && lastRead.current.at !== query.dataUpdatedAt;
    lastRead.current = { key, at: query.dataUpdatedAt };
    if (!again) return;
    if (selected.length) {
      const present = new Set(allKeys(loaded.rows, rowKey));
      const kept = selected.filter((k) => present.has(k));
      if (kept.length !== selected.length) {
        setSelected(kept);
        onSelectionChange?.(kept, allRows(loaded.rows).filter((r) => kept.includes(allKeys([r], rowKey, false)[0])));
      }
    }
    if (pagination && page > 1 && !loaded.rows.length && loaded.total > 0) setPage(Math.max(1, Math.ceil(loaded.total / pageSize)));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [query.data, query.dataUpdatedAt]);
  const emptyText = query.isError ? emptyTextForError(query.error, t('table.formatError')) : t('table.noData');

  const visibleColumns = useMemo(() => {
    const byKey = new Map(columnDefaults.map((c) => [c.key, c]));
    return settings
      .filter((st) => !st.hide && byKey.has(st.key))
      .map((st) => {
        const col = byKey.get(st.key)!;
        const c = { ...col } as DataTableColumn<T> & {
          sortOrder?: 'ascend' | 'descend' | null;
          sorter?: unknown;
          filters?: unknown;
          filteredValue?: ColumnFilterValue | null;
          width?: number | string;
          fixed?: 'left' | 'right' | boolean;
        };
        if (c.sorter) c.sortOrder = sort.prop === st.key ? (sort.order === 'ascending' ? 'ascend' : 'descend') : null;
        if (c.filters) c.filteredValue = columnFilters[st.key] ?? null;
        if (st.width) c.width = st.width;
        c.fixed = st.fixed;
        delete (c as { hide?: boolean }).hide;
        return fitHeader(c);
      });
  }, [columnDefaults, settings, sort, columnFilters]);
  // Every table scrolls sideways inside its card once its columns need more room than the card has,
  // and is at least as wide as its columns: a widened header never squeezes another, and no column
  // ends up under a fixed one (the row-selection and expand columns take their own room).
  const extra = (selectable ? 48 : 0) + (expandable?.expandedRowRender ? 48 : 0);
  const scrollWidth = typeof scrollX === 'string' ? scrollX : Math.max(scrollX ?? 0, widthSum(visibleColumns as never) + extra);
  const titles = useMemo(
    () => Object.fromEntries(columnDefaults.map((c) => [c.key, (c.title as ReactNode) ?? c.key])) as Record<string, ReactNode>,
    [columnDefaults],
  );

  const onTableChange: TableProps<T>['onChange'] = (_p, filters, sorter) => {
    setColumnFilters(filters ?? {});
    const s = (Array.isArray(sorter) ? sorter[0] : sorter) as SorterResult<T> | undefined;
    const prop = s?.order ? String(s.columnKey ?? s.field ?? '') : undefined;
    setSort(prop ? { prop, order: s?.order === 'ascend' ? 'ascending' : 'descending' } : {});
    setPage(1);
  };

  const busy = () => new Promise((resolve) => setTimeout(resolve, SETTINGS_BUSY_MS));
  const saveColumns = async () => {
    setSavingColumns(true);
    try {
      await busy();
      storeSettings(id, settings);
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
      await busy();
      clearSettings(id);
      setSettings(defaultSettings(columnDefaults as never));
      feedback.success(t('table.resetSuccess'));
    } catch {
      feedback.error(t('table.resetFailed'));
    } finally {
      setSavingColumns(false);
    }
  };

  const columnSettings = (
    <ColumnSettings
      tableId={id}
      settings={settings}
      titles={titles}
      onChange={setSettings}
      onSave={saveColumns}
      onReset={resetColumns}
      busy={savingColumns}
    />
  );

  const applyFilter = (rows: FilterRow[], obj: FilterObj) => {
    setFilterRows(rows);
    setFilterObj(obj);
    onFilterChange?.(obj);
  };

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
          {filterFields?.length ? (
            <FilterTrigger
              count={activeFilterCount}
              testId={`${id}-filter`}
              onClick={() => {
                setFilterMounted(true);
                setFilterOpen(true);
              }}
            />
          ) : null}
          {importer ? <ImportButton {...importer} testId={`${id}-import`} /> : null}
          {exportApi ? <ExportButton api={exportApi} params={listParams(params, filterObj, sort)} name={exportName ?? id} testId={`${id}-export`} /> : null}
          <Tooltip title={t('table.reload')}>
            <Button icon={<ReloadOutlined />} onClick={reload} data-testid={`${id}-reload`} aria-label={t('table.reload')} />
          </Tooltip>
          <Popover trigger="click" placement="bottomRight" title={t('table.columnSettings')} content={columnSettings}>
            <Button icon={<SettingOutlined />} aria-label={t('table.columnSettings')} data-testid={`${id}-columns`} />
          </Popover>
          <Popover trigger="click" placement="bottomRight" title={t('table.tableSettings')} content={tableSettings}>
            <Button icon={<ColumnHeightOutlined />} aria-label={t('table.tableSettings')} data-testid={`${id}-settings`} />
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
        scroll={scrollWidth ? { x: scrollWidth } : undefined}
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
      {filterFields?.length && filterMounted ? (
        <Suspense fallback={null}>
          <FilterDrawer
            open={filterOpen}
            onClose={() => setFilterOpen(false)}
            fields={filterFields}
            rows={filterRows}
            onApply={applyFilter}
            scope={filterScope ?? id}
            testId={`${id}-filter`}
          />
        </Suspense>
      ) : null}
      {pagination ? (
        <div className="cm-data-table-pagination" data-testid={`${id}-pagination`}>
          <span className="cm-data-table-total" data-testid={`${id}-total`}>
            {query.data?.capped && !query.isError
              ? t('table.totalCapped', { total: total.toLocaleString('en-US') })
              : t('table.total', { total })}
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

/** The keys of the rows and (`deep`) their children. */
function allKeys<T>(rows: readonly T[], rowKey: string | ((row: T) => Key), deep = true): Key[] {
  return rows.flatMap((row) => {
    const key = typeof rowKey === 'function' ? rowKey(row) : ((row as Record<string, unknown>)[rowKey] as Key);
    const children = (row as TreeRow).children;
    return deep && Array.isArray(children) ? [key, ...allKeys(children as T[], rowKey)] : [key];
  });
}

function allRows<T>(rows: readonly T[]): T[] {
  return rows.flatMap((row) => {
    const children = (row as TreeRow).children;
    return Array.isArray(children) ? [row, ...allRows(children as T[])] : [row];
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

/** A size in pixels, "1080×1920", on one line: it never breaks inside a number. The column wants 120 px. */
export function dimensionCell(width?: number | null, height?: number | null): ReactNode {
  return width && height ? <span style={{ whiteSpace: 'nowrap' }}>{`${width}×${height}`}</span> : '';
}
export const DIMENSION_WIDTH = 120;

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
