/**
 * /test (zh-CN route table, Administrator) — the self-test: database, file store, ffmpeg, each
 * platform's app calls and the hot-list cache, each with what it saw and how long it took
 * (`/system/selftest/index`). SPEC names /test "AI one-click video new (in testing)"; that production
 * flow is not built yet, so the route is the test bench of what it will stand on (docs/spec-decisions.md).
 */
import { Tag } from 'antd';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import type { SelfTestCheck } from '@/api/content/types';
import { contentUrls } from '@/api/content';
import { useContentT } from '../i18n';

export default function SelfTestPage() {
  const { t } = useContentT();
  const columns: DataTableColumn<SelfTestCheck>[] = [
    { title: t('selfTest.name'), dataIndex: 'name', width: 200, render: (v: string) => t(`selfTest.check.${v}`, { defaultValue: v }) },
    {
      title: t('selfTest.result'),
      dataIndex: 'ok',
      width: 110,
      render: (ok: boolean, row) => (
        <Tag color={ok ? 'success' : 'error'} data-testid={`selftest-${row.name}`}>
          {ok ? t('selfTest.ok') : t('selfTest.failed')}
        </Tag>
      ),
    },
    { title: t('selfTest.detail'), dataIndex: 'detail' },
    { title: t('selfTest.ms'), dataIndex: 'ms', width: 110 },
  ];
  return (
    <div data-testid="selftest-page">
      <PageHeader title={t('common:menu.selfTest')} subTitle={t('selfTest.subtitle')} />
      <DataTable<SelfTestCheck> id="selftest" api={contentUrls.selfTest} method="get" pagination={false} rowKey="name" columns={columns} />
    </div>
  );
}
