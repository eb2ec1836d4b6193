import { describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import type { FilterField } from '@/components/FilterDrawer/model';
import { logFilterFields } from './auth/log/filters';
import { staffFilterFields } from './auth/staffAccount/filters';
import { usageFilterFields } from './reports/useRecord/filters';
import { dicFilterFields } from './system/dic/filters';
import { merchantFilterFields } from './system/merchant/filters';
import { taskFilterFields } from './system/tasks/filters';

/** docs/api-lists.md: filterable fields of each list call and their engine types. */
const ENGINE: Record<string, Record<string, 'text' | 'int' | 'date' | 'switch' | 'select'>> = {
  log: { username: 'text', action: 'text', path: 'text', message: 'text', ip: 'text', merchant_name: 'text', method: 'select', result: 'select', status: 'int', created_at: 'date' },
  usage: { kind: 'select', change: 'int', balance: 'int', reason: 'text', job_key: 'text', operator: 'text', created_at: 'date' },
  staff: { username: 'text', nickname: 'text', mobile: 'text', status: 'switch', created_at: 'date', last_login_at: 'date' },
  merchant: { name: 'text', username: 'text', mobile: 'text', status: 'switch', points: 'int', created_at: 'date', vip_expires_at: 'date' },
  tasks: { state: 'select', kind: 'select', attempts: 'int', merchant_id: 'int', last_error: 'text', run_at: 'date', created_at: 'date', updated_at: 'date' },
  dic: { name: 'text', title: 'text', updated_at: 'date' },
};

/** Engine operators by type (docs/api-lists.md). */
const OPS = {
  text: ['=', '!=', 'include', 'notinclude'],
  int: ['=', '!=', '>', '>=', '<', '<=', 'include', 'notinclude'],
  date: ['=', '!=', '>', '>=', '<', '<=', 'include', 'notinclude'],
  switch: ['=', '!='],
  select: ['=', '!=', 'include', 'notinclude'],
};

const DICTIONARIES = ['log_result', 'http_method', 'job_state', 'job_kind', 'points_kind', 'user_kind', 'enabled'];

function check(call: keyof typeof ENGINE, fields: FilterField[]) {
  const allowed = ENGINE[call];
  expect(fields.map((f) => f.value).sort()).toEqual(Object.keys(allowed).sort());
  for (const f of fields) {
    const kind = allowed[f.value];
    const ops = f.type === 'daterange' || f.type === 'datetimerange' || f.type === 'customDate' ? ['include'] : (f.operators ?? []);
    for (const op of [...ops, f.operator ?? 'include']) expect(OPS[kind], `${call}.${f.value} ${op}`).toContain(op);
    if (kind === 'date') expect(['date', 'datetime', 'daterange', 'datetimerange', 'customDate']).toContain(f.type);
    if (kind === 'switch') expect(f.type).toBe('switch');
    if (f.extend?.dict) expect(DICTIONARIES).toContain(f.extend.dict);
  }
}

describe('list pages filter exactly the fields the server allows (docs/api-lists.md)', () => {
  const t = i18n.t.bind(i18n) as never;
  it('/log and /system/log', () => {
    check('log', logFilterFields(t, true));
    expect(logFilterFields(t).map((f) => f.value)).not.toContain('merchant_name');
  });
  it('/useRecord', () => check('usage', usageFilterFields(t)));
  it('/staffAccount', () => check('staff', staffFilterFields(t)));
  it('/system/merchant', () => check('merchant', merchantFilterFields(t)));
  it('/system/tasks', () => check('tasks', taskFilterFields(t)));
  it('/system/dic', () => check('dic', dicFilterFields(t)));
  it('selects with a dictionary use it', () => {
    const dicts = [...logFilterFields(t), ...usageFilterFields(t), ...taskFilterFields(t), ...staffFilterFields(t)].map((f) => f.extend?.dict).filter(Boolean);
    expect(new Set(dicts)).toEqual(new Set(['log_result', 'http_method', 'points_kind', 'job_state', 'job_kind', 'enabled']));
  });
});
