import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import { dateRangeField, dictField, intField, switchField, tagsField, textField } from './fields';
import {
  DRAWER_WIDTH,
  activeRows,
  chooseField,
  defaultOperator,
  fieldOperators,
  fromFilterObj,
  initialRows,
  isFieldDisabled,
  nextFreeField,
  presetRange,
  rowFor,
  splitEntry,
  toFilterObj,
  type FilterField,
  type FilterRow,
} from './model';

const fields: FilterField[] = [
  { value: 'username', label: 'User', type: 'text' },
  { value: 'result', label: 'Result', type: 'select', operator: '=', extend: { data: [{ label: 'ok', value: 'success' }] } },
  { value: 'kind', label: 'Kind', type: 'select', extend: { multiple: true } },
  { value: 'day', label: 'Day', type: 'date', operator: '>=' },
  { value: 'at', label: 'At', type: 'datetime', operator: '<' },
  { value: 'created_at', label: 'Created', type: 'daterange', selected: true },
  { value: 'updated_at', label: 'Updated', type: 'datetimerange' },
  { value: 'when', label: 'When', type: 'customDate' },
  { value: 'status', label: 'Status', type: 'switch', operator: '=' },
  { value: 'tags', label: 'Tags', type: 'tags' },
  { value: 'ymd', label: 'Custom format', type: 'date', operator: '=', extend: { valueFormat: 'YYYYMMDD' } },
  { value: 'as_range', label: 'Date typed as range', type: 'date', extend: { dateType: 'daterange' } },
];

const row = (field: string, value: FilterRow['value'], operator: FilterRow['operator'] = 'include'): FilterRow => ({ key: field + Math.random(), field, operator, value });

describe('filterObj (docs/api-lists.md)', () => {
  it("is {field: 'value|operator'} with multi-values comma-joined", () => {
    expect(
      toFilterObj(
        [row('username', 'ann'), row('result', 'success', '='), row('kind', ['topup', 'refund']), row('tags', ['a', 'b'], 'notinclude')],
        fields,
      ),
    ).toEqual({ username: 'ann|include', result: 'success|=', kind: 'topup,refund|include', tags: 'a,b|notinclude' });
  });

  it('dates as YYYY-MM-DD or YYYY-MM-DD HH:mm:ss', () => {
    expect(toFilterObj([row('day', '2026-11-02', '>='), row('at', '2026-11-02 08:30:00', '<')], fields)).toEqual({
      day: '2026-11-02|>=',
      at: '2026-11-02 08:30:00|<',
    });
    expect(toFilterObj([row('ymd', '2026-11-02', '=')], fields)).toEqual({ ymd: '20261102|=' });
  });

  it("ranges as 'from,to' with the operator include", () => {
    expect(
      toFilterObj([row('created_at', ['2026-11-01', '2026-11-03'], '='), row('updated_at', ['2026-11-01 00:00:00', '2026-11-01 12:00:00'])], fields),
    ).toEqual({ created_at: '2026-11-01,2026-11-03|include', updated_at: '2026-11-01 00:00:00,2026-11-01 12:00:00|include' });
    expect(toFilterObj([row('as_range', ['2026-01-01', '2026-01-31'])], fields)).toEqual({ as_range: '2026-01-01,2026-01-31|include' });
  });

  it("customDate: presets and a custom range become a 'from,to' day range", () => {
    const now = dayjs('2026-11-18T10:00:00');
    expect(toFilterObj([row('when', 'today')], fields, now)).toEqual({ when: '2026-11-18,2026-11-18|include' });
    expect(toFilterObj([row('when', 'last7days')], fields, now)).toEqual({ when: '2026-11-12,2026-11-18|include' });
    expect(toFilterObj([row('when', 'lastMonth')], fields, now)).toEqual({ when: '2026-10-01,2026-10-31|include' });
    expect(toFilterObj([row('when', ['2026-01-02', '2026-01-05'])], fields, now)).toEqual({ when: '2026-01-02,2026-01-05|include' });
    expect(presetRange('thisWeek', now).map((d) => d.format('YYYY-MM-DD'))).toEqual(['2026-11-16', '2026-11-18']);
  });

  it("switch as '1' or '0'", () => {
    expect(toFilterObj([row('status', '1', '=')], fields)).toEqual({ status: '1|=' });
    expect(toFilterObj([row('status', '0', '!=')], fields)).toEqual({ status: '0|!=' });
  });

  it('rows without a field or a value are not active and not sent', () => {
    const rows = [row('username', '  '), row('kind', []), row('created_at', ['2026-11-01', '']), { key: 'x', operator: 'include', value: 'a' } as FilterRow, row('result', 'success', '=')];
    expect(toFilterObj(rows, fields)).toEqual({ result: 'success|=' });
    expect(activeRows(rows, fields)).toHaveLength(1);
  });

  it('reads a filterObj back into rows (saved filters)', () => {
    const obj = { username: 'a|b|include', kind: 'topup,refund|notinclude', created_at: '2026-11-01,2026-11-03|include', status: '1|=', unknown: 'x|=' };
    const rows = fromFilterObj(obj, fields);
    expect(rows.map(({ field, operator, value }) => ({ field, operator, value }))).toEqual([
      { field: 'username', operator: 'include', value: 'a|b' },
      { field: 'kind', operator: 'notinclude', value: ['topup', 'refund'] },
      { field: 'created_at', operator: 'include', value: ['2026-11-01', '2026-11-03'] },
      { field: 'status', operator: '=', value: '1' },
    ]);
    const { unknown: _, ...known } = obj;
    expect(toFilterObj(rows, fields)).toEqual(known);
    expect(splitEntry('x')).toEqual({ value: 'x', operator: '=' });
  });
});

describe('rows (SPEC §4, §5)', () => {
  it("choosing a field resets the operator to its default (or 'include') and clears the value", () => {
    const r: FilterRow = { key: 'k', field: 'username', operator: 'notinclude', value: 'bob' };
    expect(chooseField(r, fields[1])).toEqual({ key: 'k', field: 'result', operator: '=', value: undefined });
    expect(chooseField(r, fields[0])).toEqual({ key: 'k', field: 'username', operator: 'include', value: undefined });
    expect(defaultOperator(undefined)).toBe('include');
    expect(rowFor(fields[3]).operator).toBe('>=');
  });

  it('starts with the rows of fields marked selected', () => {
    expect(initialRows(fields).map((r) => r.field)).toEqual(['created_at']);
  });

  it('used fields are disabled unless they allow repeats; none left means no new row', () => {
    const two: FilterField[] = [
      { value: 'a', label: 'A', type: 'text' },
      { value: 'b', label: 'B', type: 'text' },
    ];
    const rows = [rowFor(two[0])];
    expect(isFieldDisabled(two[0], rows)).toBe(true);
    expect(isFieldDisabled(two[0], rows, rows[0].key)).toBe(false); // its own row
    expect(nextFreeField(two, rows)?.value).toBe('b');
    rows.push(rowFor(two[1]));
    expect(nextFreeField(two, rows)).toBeNull();
    const repeatable: FilterField[] = [{ ...two[0], repeat: true }, two[1]];
    expect(isFieldDisabled(repeatable[0], rows)).toBe(false);
    expect(nextFreeField(repeatable, rows)?.value).toBe('a');
  });

  it('range types only offer include; others their own list or the type default', () => {
    expect(fieldOperators(fields[5])).toEqual(['include']);
    expect(fieldOperators(fields[7])).toEqual(['include']);
    expect(fieldOperators(fields[8])).toEqual(['=', '!=']);
    expect(fieldOperators({ value: 'x', label: 'x', type: 'text', operators: ['='] })).toEqual(['=']);
  });

  it('drawer width is 650', () => {
    expect(DRAWER_WIDTH).toBe(650);
  });
});

describe('field builders match the list engine types', () => {
  it('text, int, date, switch, select, tags', () => {
    expect(textField('u', 'U')).toMatchObject({ type: 'text', operator: 'include', operators: ['include', 'notinclude', '=', '!='] });
    expect(intField('n', 'N')).toMatchObject({ type: 'text', operator: '=', operators: ['=', '!=', '>', '>=', '<', '<=', 'include', 'notinclude'] });
    expect(dateRangeField('d', 'D')).toMatchObject({ type: 'daterange', operator: 'include' });
    expect(switchField('s', 'S', 'enabled')).toMatchObject({ type: 'switch', operator: '=', extend: { dict: 'enabled' } });
    expect(dictField('r', 'R', 'log_result')).toMatchObject({ type: 'select', operator: '=', operators: ['=', '!='], extend: { dict: 'log_result', multiple: false } });
    expect(dictField('k', 'K', 'points_kind', { multiple: true })).toMatchObject({ operator: 'include', extend: { multiple: true } });
    expect(tagsField('t', 'T')).toMatchObject({ type: 'tags', operators: ['include', 'notinclude'] });
  });
});
