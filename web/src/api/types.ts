/** Envelope and list shapes shared by every area (docs/api-foundation.md). */
export interface Envelope<T = unknown> {
  code: number;
  message: string;
  data: T;
}

export interface ListResult<T, S = Record<string, number>> {
  rows: T[];
  total: number;
  summary?: S;
}

export type SortOrder = 'ascending' | 'descending';

export interface ListParams {
  page?: number;
  pageSize?: number;
  limit?: number;
  prop?: string;
  order?: SortOrder;
  [filter: string]: unknown;
}

/** Unix milliseconds. */
export type Millis = number;
