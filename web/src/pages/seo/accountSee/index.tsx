/**
 * /account_see — benchmark accounts (docs/api-seo.md `seo.benchmark/*`): the accounts the merchant
 * watches with their figures and last sync; add by a share link or an account id, sync now, delete,
 * and the detail (figures over time, top videos, the words of their titles).
 */
import { BarChartOutlined, DeleteOutlined, PlusOutlined, SyncOutlined } from '@ant-design/icons';
import { Avatar, Button, Form, Input, Popconfirm, Radio, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useWrite } from '@/api/mutations';
import { addBenchmark, deleteBenchmark, seoKeys, seoUrls, syncBenchmark } from '@/api/seo';
import type { Benchmark } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { benchmarkFilterFields } from '../filters';
import { useSeoT } from '../i18n';
import { BENCH_PLATFORMS } from '../rules';
import { SourceTag } from '../shared/SourceTag';
import DetailDialog from './DetailDialog';

interface AddValues {
  platform: (typeof BENCH_PLATFORMS)[number];
  link: string;
}

export default function AccountSeePage() {
  const { t } = useSeoT();
  const [form] = Form.useForm<AddValues>();
  const [adding, setAdding] = useState(false);
  const [viewing, setViewing] = useState<Benchmark | null>(null);
  const syncWrite = useWrite(syncBenchmark, seoKeys.all);
  const remove = useWrite(deleteBenchmark, seoKeys.all);
  const add = useWrite(({ platform, link }: AddValues) => addBenchmark(platform, link), seoKeys.all);
  const syncing = syncWrite.isPending ? syncWrite.variables : null;

  const sync = (row: Benchmark) => syncWrite.mutate(row.id, { onSuccess: () => feedback.success(t('bench.synced', { name: row.nickname })) });

  const columns = useMemo<DataTableColumn<Benchmark>[]>(
    () => [
      {
        title: t('bench.nickname'),
        dataIndex: 'nickname',
        width: 220,
        render: (v: string, row) => (
          <Space>
            <Avatar src={row.avatar || undefined} size="small" />
            <Typography.Link onClick={() => setViewing(row)} data-testid={`bench-name-${row.id}`}>
              {v || row.account_id}
            </Typography.Link>
          </Space>
        ),
      },
      { title: t('word.platform'), dataIndex: 'platform', width: 90, render: (v: string) => <Tag>{t(`platform.${v}`)}</Tag> },
      {
        title: t('bench.source'),
        dataIndex: 'source',
        width: 130,
        render: (v: Benchmark['source'], row) =>
          v === 'none' ? (
            <Tooltip title={t('source.needs.benchmark')}>
              <Tag data-testid={`bench-source-${row.id}`} data-source="none">
                {t('source.none')}
              </Tag>
            </Tooltip>
          ) : (
            <SourceTag source={v} testId={`bench-source-${row.id}`} />
          ),
      },
      { title: t('bench.followers'), dataIndex: 'followers', width: 110, sorter: true },
      { title: t('bench.likes'), dataIndex: 'likes', width: 110, sorter: true },
      { title: t('bench.works'), dataIndex: 'works', width: 90, sorter: true },
      { title: t('bench.posts_7d'), dataIndex: 'posts_7d', width: 110, sorter: true },
      { title: t('bench.plays_7d'), dataIndex: 'plays_7d', width: 120, sorter: true },
      {
        title: t('bench.lastSync'),
        dataIndex: 'last_sync_at',
        width: 190,
        render: (v: number | null, row) =>
          row.last_error ? (
            <Tooltip title={row.last_error}>
              <Tag color="error" data-testid={`bench-error-${row.id}`}>
                {t('bench.syncFailed')}
              </Tag>
            </Tooltip>
          ) : v ? (
            formatTime(v)
          ) : (
            <Typography.Text type="secondary">{t('bench.neverSynced')}</Typography.Text>
          ),
      },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 250,
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<BarChartOutlined />} onClick={() => setViewing(row)} data-testid={`bench-view-${row.id}`}>
              {t('bench.detail')}
            </Button>
            <Button type="link" size="small" icon={<SyncOutlined />} loading={syncing === row.id} onClick={() => sync(row)} data-testid={`bench-sync-${row.id}`}>
              {t('bench.sync')}
            </Button>
            <Popconfirm
              title={t('bench.deleteConfirm', { name: row.nickname })}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `bench-delete-ok-${row.id}` } as never}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`bench-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, syncing],
  );
  const filterFields = useMemo(() => benchmarkFilterFields(t), [t]);

  return (
    <div data-testid="account-see-page">
      <PageHeader
        title={t('common:menu.accountSee')}
        subTitle={t('bench.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="bench-add">
            {t('bench.add')}
          </Button>
        }
      />
      <DataTable<Benchmark> id="benchmarks" queryKey={seoKeys.all} api={seoUrls.benchmarks} method="post" columns={columns} filterFields={filterFields} scrollX={1300} />
      <ModalForm<AddValues>
        open={adding}
        form={form}
        title={t('bench.addTitle')}
        testId="bench-form"
        initialValues={{ platform: 'dy', link: '' }}
        okText={t('bench.addOk')}
        onCancel={() => setAdding(false)}
        onSubmit={async (v) => {
          const added = await add.mutateAsync({ platform: v.platform, link: v.link.trim() });
          feedback.success(t('bench.added', { name: added.nickname || added.account_id }));
          setAdding(false);
        }}
      >
        <Form.Item name="platform" label={t('word.platform')}>
          <Radio.Group optionType="button" options={BENCH_PLATFORMS.map((p) => ({ value: p, label: t(`platform.${p}`) }))} data-testid="bench-form-platform" />
        </Form.Item>
        <Form.Item name="link" label={t('bench.link')} extra={t('bench.linkHelp')} rules={[{ required: true, whitespace: true, message: t('bench.linkRequired') }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 4 }} placeholder={t('bench.linkPlaceholder')} data-testid="bench-form-link" />
        </Form.Item>
      </ModalForm>
      <DetailDialog account={viewing} onClose={() => setViewing(null)} />
    </div>
  );
}
