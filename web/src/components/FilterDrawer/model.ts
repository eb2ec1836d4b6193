/**
 * The filter drawer's data model (SPEC §3 "Filter field definition", "Saved filter", §4 "Filter
 * drawer", §5 "Filters", §9) and the `filterObj` it emits (docs/api-lists.md):
 *
 *   { field: "value|operator" }      multi-values comma-joined
 *   dates  YYYY-MM-DD  /  YYYY-MM-DD HH:mm:ss     ranges "from,to" with the operator include
 *   switch '1' | '0'
 *
 * Pure functions only: DataTable imports this module to count the badge and build the request,
 * while the drawer itself is loaded lazily.
 */
import dayjs from 'dayjs';
import { merchantToday } from '@/utils/format';

export type FilterType = 'text' | 'select' | 'date' | 'daterange' | 'datetime' | 'datetimerange' | 'customDate' | 'switch' | 'tags';
export type FilterOperator = '=' | '!=' | '>' | '>=' | '<' | '<=' | 'include' | 'notinclude';
export type DateType = 'date' | 'datetime' | 'daterange' | 'datetimerange';

export const OPERATORS: FilterOperator[] = ['=', '!=', '>', '>=', '<', '<=', 'include', 'notinclude'];
/** Text key of each operator (filter.op.<key>). */
export const OPERATOR_KEY: Record<FilterOperator, string> = {
  '=': 'eq',
  '!=': 'ne',
  '>': 'gt',
  '>=': 'ge',
  '<': 'lt',
  '<=': 'le',
  include: 'include',
  notinclude: 'notinclude',
};
/** SPEC §9: value separator. */
export const VALUE_SEPARATOR = '|';
export const DATE_FORMAT = 'YYYY-MM-DD';
export const DATETIME_FORMAT = 'YYYY-MM-DD HH:mm:ss';
/** SPEC §9: drawer width. */
export const DRAWER_WIDTH = 650;

export interface FilterOption {
  label: string;
  value: string | number;
}

export interface FilterField {
  /** Key sent in filterObj. */
  value: string;
  label: string;
  type: FilterType;
  /** Operators offered (default: by type). */
  operators?: FilterOperator[];
  /** Operator a new row starts with (default 'include'). */
  operator?: FilterOperator;
  placeholder?: string;
  /** A row for this field is there from the start. */
  selected?: boolean;
  /** Usable in more than one row. */
  repeat?: boolean;
  extend?: {
    multiple?: boolean;
    /** Options come from `request(searchText)` as the user types. */
    remote?: boolean;
    /** Static options. */
    data?: FilterOption[];
    request?: (search: string) => Promise<FilterOption[]>;
    /** Picker kind of a date field (overrides the type's own). */
    dateType?: DateType;
    /** dayjs format of the emitted value (default YYYY-MM-DD, or YYYY-MM-DD HH:mm:ss for datetimes). */
    valueFormat?: string;
    /** Options from the dictionary of this name (GET /system/dic?name=). */
    dict?: string;
  };
}

/** A row's value: text, one option, several options / tags, a [from, to] range or a customDate preset. */
export type FilterValue = string | number | Array<string | number> | undefined;

export interface FilterRow {
  key: string;
  field?: string;
  operator: FilterOperator;
  value: FilterValue;
}

export type FilterObj = Record<string, string>;

export interface SavedFilter {
  id: string;
  title: string;
  filterObj: FilterObj;
}

/** Operators by type when a field does not list its own (docs/api-lists.md). */
export function typeOperators(type: FilterType): FilterOperator[] {
  switch (type) {
    case 'text':
      return ['include', 'notinclude', '=', '!='];
    case 'select':
      return ['include', 'notinclude', '=', '!='];
    case 'date':
    case 'datetime':
      return ['=', '!=', '>', '>=', '<', '<='];
    case 'daterange':
    case 'datetimerange':
    case 'customDate':
      return ['include'];
    case 'switch':
      return ['=', '!='];
    case 'tags':
      return ['include', 'notinclude'];
  }
}

export function fieldOperators(field: FilterField): FilterOperator[] {
  const kind = effectiveType(field);
  if (kind === 'daterange' || kind === 'datetimerange' || kind === 'customDate') return ['include'];
  return field.operators?.length ? field.operators : typeOperators(field.type);
}

/** SPEC §4: choosing a field starts its row at the field's default operator, or 'include'. */
export function defaultOperator(field: FilterField | undefined): FilterOperator {
  return field?.operator ?? 'include';
}

/** The picker kind of a date-like field (extend.dateType wins). */
export function effectiveType(field: FilterField): FilterType {
  const dateTypes: FilterType[] = ['date', 'datetime', 'daterange', 'datetimerange'];
  if (field.extend?.dateType && dateTypes.includes(field.type)) return field.extend.dateType;
  return field.type;
}

export function isRangeType(type: FilterType): boolean {
  return type === 'daterange' || type === 'datetimerange' || type === 'customDate';
}

export function isMultiValued(field: FilterField): boolean {
  return field.type === 'tags' || (field.type === 'select' && Boolean(field.extend?.multiple));
}

export function valueFormat(field: FilterField): string {
  if (field.extend?.valueFormat) return field.extend.valueFormat;
  const kind = effectiveType(field);
  return kind === 'datetime' || kind === 'datetimerange' ? DATETIME_FORMAT : DATE_FORMAT;
}

let rowSeq = 0;
export function newRowKey(): string {
  rowSeq += 1;
  return `row-${rowSeq}`;
}

/** A new row for `field`: its default operator and no value. */
export function rowFor(field: FilterField | undefined): FilterRow {
  return { key: newRowKey(), field: field?.value, operator: defaultOperator(field), value: undefined };
}

/** The rows that are there from the start: one per field marked `selected`. */
export function initialRows(fields: readonly FilterField[]): FilterRow[] {
  return fields.filter((f) => f.selected).map((f) => rowFor(f));
}

/** SPEC §4: choosing a field resets the operator to the field default (or 'include') and clears the value. */
export function chooseField(row: FilterRow, field: FilterField | undefined): FilterRow {
  return { ...row, field: field?.value, operator: defaultOperator(field), value: undefined };
}

/** Fields a row may pick: a field used by another row is disabled unless it allows repeats. */
export function usedFields(rows: readonly FilterRow[], exceptKey?: string): Set<string> {
  return new Set(rows.filter((r) => r.key !== exceptKey && r.field).map((r) => r.field!));
}

export function isFieldDisabled(field: FilterField, rows: readonly FilterRow[], rowKey?: string): boolean {
  return !field.repeat && usedFields(rows, rowKey).has(field.value);
}

/** The field a new row starts with, or null when every field is used ('no filter items'). */
export function nextFreeField(fields: readonly FilterField[], rows: readonly FilterRow[]): FilterField | null {
  const used = usedFields(rows);
  return fields.find((f) => f.repeat || !used.has(f.value)) ?? null;
}

// ---- customDate presets

export const CUSTOM_DATE_PRESETS = ['today', 'yesterday', 'last7days', 'last30days', 'thisWeek', 'thisMonth', 'lastMonth', 'thisYear'] as const;
export type CustomDatePreset = (typeof CUSTOM_DATE_PRESETS)[number];

/** [from, to] days of a preset, both included. */
export function presetRange(preset: CustomDatePreset, now: dayjs.Dayjs = merchantToday()): [dayjs.Dayjs, dayjs.Dayjs] {
  const today = now.startOf('day');
  switch (preset) {
    case 'today':
      return [today, today];
    case 'yesterday':
      return [today.subtract(1, 'day'), today.subtract(1, 'day')];
    case 'last7days':
      return [today.subtract(6, 'day'), today];
    case 'last30days':
      return [today.subtract(29, 'day'), today];
    case 'thisWeek': {
      const monday = today.subtract((today.day() + 6) % 7, 'day');
      return [monday, today];
    }
    case 'thisMonth':
      return [today.startOf('month'), today];
    case 'lastMonth': {
      const last = today.startOf('month').subtract(1, 'month');
      return [last, last.endOf('month').startOf('day')];
    }
    case 'thisYear':
      return [today.startOf('year'), today];
  }
}

function isBlank(value: FilterValue): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0 || value.every((v) => v === undefined || v === null || String(v).trim() === '');
  return false;
}

/**
 * The `value|operator` text of one row, or null when the row is not active (no field, no value).
 * `now` fixes the day of a customDate preset.
 */
export function rowEntry(row: FilterRow, fields: readonly FilterField[], now?: dayjs.Dayjs): [string, string] | null {
  const field = fields.find((f) => f.value === row.field);
  if (!field || isBlank(row.value)) return null;
  const kind = effectiveType(field);
  const format = valueFormat(field);
  const fmt = (v: string | number) => {
    const d = dayjs(String(v));
    return d.isValid() ? d.format(format) : String(v);
  };
  let text: string;
  let operator = row.operator;
  if (kind === 'customDate') {
    operator = 'include';
    if (typeof row.value === 'string' && (CUSTOM_DATE_PRESETS as readonly string[]).includes(row.value)) {
      const [from, to] = presetRange(row.value as CustomDatePreset, now);
      text = `${from.format(format)},${to.format(format)}`;
    } else if (Array.isArray(row.value) && row.value.length === 2 && !isBlank([row.value[0]]) && !isBlank([row.value[1]])) {
      text = `${fmt(row.value[0])},${fmt(row.value[1])}`;
    } else return null;
  } else if (isRangeType(kind)) {
    operator = 'include';
    if (!Array.isArray(row.value) || row.value.length !== 2 || isBlank([row.value[0]]) || isBlank([row.value[1]])) return null;
    text = `${fmt(row.value[0])},${fmt(row.value[1])}`;
  } else if (kind === 'date' || kind === 'datetime') {
    text = fmt(Array.isArray(row.value) ? row.value[0] : row.value!);
  } else if (kind === 'switch') {
    const v = String(row.value);
    text = v === '1' || v === 'true' ? '1' : '0';
  } else if (Array.isArray(row.value)) {
    text = row.value
      .map((v) => String(v).trim())
      .filter(Boolean)
      .join(',');
  } else {
    text = String(row.value).trim();
  }
  return [field.value, `${text}${VALUE_SEPARATOR}${operator}`];
}

/** Rows that take part in the filter (the badge count). */
export function activeRows(rows: readonly FilterRow[], fields: readonly FilterField[]): FilterRow[] {
  return rows.filter((r) => rowEntry(r, fields) !== null);
}

/**
 * The filterObj of the rows. A field allowed in several rows keeps its last active row (the list
 * engine takes one condition per field).
 */
export function toFilterObj(rows: readonly FilterRow[], fields: readonly FilterField[], now?: dayjs.Dayjs): FilterObj {
  const out: FilterObj = {};
  for (const row of rows) {
    const entry = rowEntry(row, fields, now);
    if (entry) out[entry[0]] = entry[1];
  }
  return out;
}

/** Splits 'value|operator' at the last separator. */
export function splitEntry(text: string): { value: string; operator: FilterOperator } {
  const at = text.lastIndexOf(VALUE_SEPARATOR);
  if (at < 0) return { value: text, operator: '=' };
  const op = text.slice(at + 1) as FilterOperator;
  return { value: text.slice(0, at), operator: OPERATORS.includes(op) ? op : '=' };
}

/** Rows back from a filterObj (choosing a saved filter). Unknown fields are left out. */
export function fromFilterObj(obj: FilterObj, fields: readonly FilterField[]): FilterRow[] {
  const rows: FilterRow[] = [];
  for (const [key, text] of Object.entries(obj ?? {})) {
    const field = fields.find((f) => f.value === key);
    if (!field || typeof text !== 'string') continue;
    const { value, operator } = splitEntry(text);
    const kind = effectiveType(field);
    let parsed: FilterValue;
    if (isRangeType(kind)) {
      const [from, to] = value.split(',');
      parsed = from !== undefined && to !== undefined ? [from, to] : undefined;
    } else if (isMultiValued(field)) {
      parsed = value ? value.split(',') : [];
    } else parsed = value;
    rows.push({ key: newRowKey(), field: field.value, operator: isRangeType(kind) ? 'include' : operator, value: parsed });
  }
  return rows;
}

export function isEmptyFilter(obj: FilterObj | undefined): boolean {
  return !obj || Object.keys(obj).length === 0;
}
