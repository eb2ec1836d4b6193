/**
 * Builders of filter field definitions matching the list engine's field types (docs/api-lists.md):
 * text, int, date, switch, select (from a dictionary) and tags.
 */
import type { FilterField, FilterOperator, FilterOption } from './model';

const TEXT_OPS: FilterOperator[] = ['include', 'notinclude', '=', '!='];
const INT_OPS: FilterOperator[] = ['=', '!=', '>', '>=', '<', '<=', 'include', 'notinclude'];
const SINGLE_SELECT_OPS: FilterOperator[] = ['=', '!='];
const MULTI_SELECT_OPS: FilterOperator[] = ['include', 'notinclude'];

type Extra = Partial<Omit<FilterField, 'value' | 'label' | 'type'>>;

/** Text: contains by default. */
export const textField = (value: string, label: string, extra: Extra = {}): FilterField => ({
  value,
  label,
  type: 'text',
  operators: TEXT_OPS,
  operator: 'include',
  ...extra,
});

/** Integer: typed as text, compared with = by default; include takes a comma list. */
export const intField = (value: string, label: string, extra: Extra = {}): FilterField => ({
  value,
  label,
  type: 'text',
  operators: INT_OPS,
  operator: '=',
  ...extra,
});

/** Date: a day range 'from,to' (both days included). */
export const dateRangeField = (value: string, label: string, extra: Extra = {}): FilterField => ({
  value,
  label,
  type: 'daterange',
  operator: 'include',
  ...extra,
});

/** Select from a dictionary (GET /system/dic?name=): one value (=, !=) or several (include, notinclude). */
export const dictField = (value: string, label: string, dict: string, { multiple = false, ...extra }: Extra & { multiple?: boolean } = {}): FilterField => ({
  value,
  label,
  type: 'select',
  operators: multiple ? MULTI_SELECT_OPS : SINGLE_SELECT_OPS,
  operator: multiple ? 'include' : '=',
  ...extra,
  extend: { dict, multiple, ...extra.extend },
});

/** Switch ('1' / '0'), optionally labelled from a dictionary. */
export const switchField = (value: string, label: string, dict?: string, extra: Extra = {}): FilterField => ({
  value,
  label,
  type: 'switch',
  operators: ['=', '!='],
  operator: '=',
  ...extra,
  extend: dict ? { dict, ...extra.extend } : extra.extend,
});

/** Free values typed with Enter: has any (include) / none (notinclude). */
export const tagsField = (value: string, label: string, extra: Extra = {}): FilterField => ({
  value,
  label,
  type: 'tags',
  operators: MULTI_SELECT_OPS,
  operator: 'include',
  ...extra,
});

/** Select from fixed options: one value (=, !=) or several (include, notinclude). */
export const optionsField = (
  value: string,
  label: string,
  options: FilterOption[],
  { multiple = false, ...extra }: Extra & { multiple?: boolean } = {},
): FilterField => ({
  value,
  label,
  type: 'select',
  operators: multiple ? MULTI_SELECT_OPS : SINGLE_SELECT_OPS,
  operator: multiple ? 'include' : '=',
  ...extra,
  extend: { data: options, multiple, ...extra.extend },
});
