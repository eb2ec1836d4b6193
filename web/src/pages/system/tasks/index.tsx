import { Button, Progress, Select, Space, Switch, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWrite } from '@/api/mutations';
import { retryTask, systemKeys, systemUrls } from '@/api/system';
import type { TaskRow, TaskState } from '@/api/system/types';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import DictSelect, { useDictionary } from '@/components/DictSelect';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import MerchantPicker, { merchantFilter, type PickedMerchant } from '../shared/MerchantPicker';
import { JOB_KIND_DICT, taskFilterFields } from './filters';

const STATES: TaskState[] = ['queued', 'running', 'done', 'failed', 'dead'];
const STATE_COLOR: Record<TaskState, string> = { queued: 'default', running: 'processing', done: 'success', failed: 'warning', dead: 'error' };

export default function TasksPage() {
  const { t } = useTranslation('system');
  const table = useRef<DataTableRef>(null);
  const [state, setState] = useState<TaskState | undefined>();
  const [kind, setKind] = useState<string | undefined>();
  const kinds = useDictionary(JOB_KIND_DICT);
  const [merchant, setMerchant] = useState<PickedMerchant | undefined>();
  const [auto, setAuto] = useState(false);
  const retry = useWrite(retryTask, systemKeys.all);

  useEffect(() => {
    if (!auto) return;
    // auto refresh: nothing was written, the jobs are read again
    const id = setInterval(() => table.current?.refresh(), 5000);
    return () => clearInterval(id);
  }, [auto]);

  const columns = useMemo<DataTableColumn<TaskRow>[]>(
    () => [
      { title: 'ID', dataIndex: 'id', width: 80, sorter: true },
      {
        title: t('tasks.kind'),
        dataIndex: 'kind',
        render: (k: string) => kinds.data?.find((o) => o.value === k)?.label ?? k,
      },
      {
        title: t('tasks.state'),
        dataIndex: 'state',
        render: (s: TaskState) => <Tag color={STATE_COLOR[s]}>{t(`tasks.states.${s}`)}</Tag>,
      },
      {
        title: t('tasks.attempts'),
        dataIndex: 'attempts',
        render: (n: number, row) => `${n} / ${row.max_attempts}`,
      },
      {
        title: t('tasks.progress'),
        dataIndex: 'progress',
        width: 140,
        render: (p: number, row) => (
          <Progress percent={Math.round(p ?? 0)} size="small" status={row.state === 'dead' || row.state === 'failed' ? 'exception' : undefined} />
        ),
      },
      {
        title: t('tasks.lastError'),
        dataIndex: 'last_error',
        render: (e: string | null) =>
          e ? (
            <Tooltip title={e}>
              <Typography.Text type="danger" ellipsis style={{ maxWidth: 240 }}>
                {e}
              </Typography.Text>
            </Tooltip>
          ) : null,
      },
      { title: t('tasks.merchant'), dataIndex: 'merchant_id', hide: true },
      { title: t('tasks.runAt'), dataIndex: 'run_at', render: formatTime, sorter: true },
      { title: t('common:createdAt'), dataIndex: 'created_at', render: formatTime, hide: true },
      { title: t('tasks.updatedAt'), dataIndex: 'updated_at', render: formatTime, sorter: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        render: (_, row) => (
          <Button
            type="link"
            size="small"
            disabled={row.state !== 'failed' && row.state !== 'dead'}
            data-testid={`task-retry-${row.id}`}
            onClick={async () => {
              try {
                await retry.mutateAsync(row.id);
                feedback.success(t('tasks.retried'));
              } catch {
                /* toasted */
              }
            }}
          >
            {t('tasks.retry')}
          </Button>
        ),
      },
    ],
    [t, kinds.data],
  );

  const filterFields = useMemo(() => taskFilterFields(t), [t]);
  const params = useMemo(
    () => ({ ...(state ? { state } : {}), ...(kind ? { kind } : {}), ...(merchant ? { filterObj: merchantFilter(merchant, 'merchant_id') } : {}) }),
    [state, kind, merchant],
  );

  return (
    <>
      <PageHeader title={t('common:menu.systemTasks')} subTitle={t('tasks.subtitle')} />
      <DataTable<TaskRow>
        id="tasks"
        ref={table}
        queryKey={systemKeys.all}
        api={systemUrls.tasks}
        params={params}
        columns={columns}
        filterFields={filterFields}
        scrollX={1100}
        toolbar={
          <Space wrap>
            <Select
              allowClear
              placeholder={t('tasks.state')}
              style={{ width: 160 }}
              value={state}
              onChange={setState}
              options={STATES.map((s) => ({ value: s, label: t(`tasks.states.${s}`) }))}
              data-testid="tasks-filter-state"
            />
            <MerchantPicker value={merchant} onChange={setMerchant} testId="tasks-merchant" />
            <DictSelect name={JOB_KIND_DICT} placeholder={t('tasks.kind')} style={{ width: 200 }} value={kind} onChange={(v) => setKind(v as string | undefined)} testId="tasks-filter-kind" />
            <Space>
              <Switch size="small" checked={auto} onChange={setAuto} />
              {t('tasks.autoRefresh')}
            </Space>
          </Space>
        }
      />
    </>
  );
}
