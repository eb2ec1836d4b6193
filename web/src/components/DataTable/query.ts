/**
 * The request parameters of a list call, in one place: what the table sends for a page and what its
 * export sends (the same filters and sort, without the page), so a file holds what the page shows.
 */
import type { SortOrder } from '@/api/types';
import { isEmptyFilter, type FilterObj } from '../FilterDrawer/model';

export interface ListSort {
  prop?: string;
  order?: SortOrder;
}

/** The page's extra params, its fixed `filterObj` merged under the drawer's, and the sort. */
export function listParams(params: Record<string, unknown> | undefined, filterObj: FilterObj, sort: ListSort = {}): Record<string, unknown> {
  const body: Record<string, unknown> = { ...(params ?? {}) };
  const fixed = params?.filterObj && typeof params.filterObj === 'object' ? (params.filterObj as FilterObj) : {};
  const filters = { ...fixed, ...filterObj };
  if (!isEmptyFilter(filters)) body.filterObj = filters;
  else delete body.filterObj;
  if (sort.prop && sort.order) {
    body.prop = sort.prop;
    body.order = sort.order;
  }
  return body;
}

export type ExportFormat = 'xlsx' | 'csv';

/** An export's parameters: the list's (no page) with the file type. */
export function exportParams(list: Record<string, unknown>, format: ExportFormat): Record<string, unknown> {
  const out: Record<string, unknown> = { ...list, format };
  delete out.page;
  delete out.pageSize;
  delete out.limit;
  return out;
}
