/** Envelope and list shapes shared by every area (docs/api-foundation.md). */
import type { components } from './schema';

/** The envelope `{code, message, data}` of every answer: the server's `Reply<T>` with this call's data. */
export type Envelope<T = unknown> = Omit<components['schemas']['Reply_Done'], 'data'> & { data: T };

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
