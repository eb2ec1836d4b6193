import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch } from '@/test/utils';
import { runExport } from './ExportButton';
import { exportParams, listParams } from './query';

describe('the shared export button', () => {
  beforeEach(() => {
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:1'), revokeObjectURL: vi.fn() }));
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
  });
  afterEach(() => vi.restoreAllMocks());

  it('sends the filters and sort the list shows, never the page', async () => {
    const fetch = mockFetch(() => new Response('a', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="accounts-1.csv"' } }));
    const shown = listParams({ platform: 'dy', filterObj: { group_id: '3|=' } }, { nickname: '甲|include' }, { prop: 'created_at', order: 'descending' });
    const saved = await runExport('/task.merchant_group_user/export', { ...shown, page: 4, pageSize: 20 }, 'csv', 'accounts');
    expect(saved.name).toBe('accounts-1.csv');
    const u = new URL((fetch.mock.calls[0] as [string])[0], 'http://localhost');
    expect(u.pathname).toBe('/api/task.merchant_group_user/export');
    expect(Object.fromEntries([...u.searchParams].filter(([k]) => !['filterObj', '_t', 'timestamp'].includes(k)))).toEqual({ platform: 'dy', prop: 'created_at', order: 'descending', format: 'csv' });
    expect(JSON.parse(u.searchParams.get('filterObj') ?? '')).toEqual({ group_id: '3|=', nickname: '甲|include' });
  });

  it('drops an empty filter and keeps the list params as the table sends them', () => {
    expect(listParams({ state: 'failed', filterObj: {} }, {})).toEqual({ state: 'failed' });
    expect(exportParams({ task_id: 7, limit: 50 }, 'xlsx')).toEqual({ task_id: 7, format: 'xlsx' });
  });

  it('is worded in zh-CN and English', async () => {
    await i18n.changeLanguage('zh-CN');
    expect([i18n.t('table.export'), i18n.t('table.exportXlsx'), i18n.t('table.exportCsv')]).toEqual(['导出', '导出 Excel', '导出 CSV']);
    await i18n.changeLanguage('en');
    expect([i18n.t('table.export'), i18n.t('table.exportXlsx'), i18n.t('table.exportCsv')]).toEqual(['Export', 'Export Excel', 'Export CSV']);
  });
});
