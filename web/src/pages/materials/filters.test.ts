import { describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import type { FilterField } from '@/components/FilterDrawer/model';
import { clipFilterFields, fontFilterFields, imageFilterFields, musicFilterFields, systemMusicFilterFields, voiceFilterFields } from './filters';
import './i18n';

/** docs/api-materials.md: the fields the material lists filter on, with their list-engine types. */
const MEDIA = {
  name: 'text',
  original_name: 'text',
  kind: 'select',
  state: 'select',
  group_id: 'int',
  classify_id: 'int',
  file_type_id: 'int',
  size: 'int',
  duration_ms: 'int',
  width: 'int',
  height: 'int',
  created_at: 'date',
} as const;
const SYSTEM_MUSIC = { name: 'text', category: 'select', duration_ms: 'int', created_at: 'date' } as const;
const OPS = {
  text: ['=', '!=', 'include', 'notinclude'],
  int: ['=', '!=', '>', '>=', '<', '<=', 'include', 'notinclude'],
  date: ['include'],
  select: ['=', '!=', 'include', 'notinclude'],
};

function check(fields: FilterField[], allowed: Record<string, keyof typeof OPS>) {
  for (const f of fields) {
    const kind = allowed[f.value];
    expect(kind, `${f.value} is not filterable`).toBeDefined();
    for (const op of [...(f.operators ?? []), f.operator ?? 'include']) expect(OPS[kind], `${f.value} ${op}`).toContain(op);
    if (kind === 'date') expect(f.type).toBe('daterange');
    expect(f.label).not.toMatch(/^materials:/); // every label is translated
  }
  expect(new Set(fields.map((f) => f.value)).size).toBe(fields.length);
}

describe('material list filters (docs/api-materials.md)', () => {
  const t = i18n.t.bind(i18n) as never;
  it('only fields the server filters on, with its operators', () => {
    for (const fields of [clipFilterFields(t), voiceFilterFields(t), musicFilterFields(t), imageFilterFields(t), fontFilterFields(t)]) check(fields, MEDIA);
    check(systemMusicFilterFields(t), SYSTEM_MUSIC);
  });
  it('the group and the category are the left panes, not drawer fields', () => {
    for (const fields of [clipFilterFields(t), musicFilterFields(t), imageFilterFields(t)]) {
      expect(fields.map((f) => f.value)).not.toContain('group_id');
      expect(fields.map((f) => f.value)).not.toContain('file_type_id');
    }
  });
  it('state and kind offer their values', () => {
    const state = clipFilterFields(t).find((f) => f.value === 'state')!;
    expect(state.extend?.data?.map((o) => o.value)).toEqual(['processing', 'ready', 'failed']);
    expect(clipFilterFields(t).find((f) => f.value === 'kind')!.extend?.data?.map((o) => o.value)).toEqual(['video', 'image']);
  });
});
