/**
 * /send_management — release tasks (docs/api-matrix.md "Release tasks"): name, platform, review state
 * with its SLA due time and an overdue marker, progress, counts per state, failures; the new-task
 * flow (TaskForm, opened at once by `?new=1`) and the task detail (TaskDetail).
 */
import { DeleteOutlined, EyeOutlined, PlusOutlined, ShareAltOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useSearchParams } from 'react-router';
import { deleteTask, matrixKeys, matrixUrls } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { BatchSheet, Plan, Task, TaskPlatform } from '@/api/matrix/types';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import ImportButton from '@/components/DataTable/ImportButton';
import PageHeader from '@/components/PageHeader';
import TimeZoneNote from '@/components/TimeZoneNote';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { taskFilterFields } from '../filters';
import { useMatrixT } from '../i18n';
import { ITEM_STATES } from '../rules';
import { PlatformTag, ReviewTag } from '../shared/tags';
import BatchImport from './BatchImport';
import TaskDetail from './TaskDetail';
import ShareModal from './ShareModal';
import TaskForm from './TaskForm';
import '../matrix.css';

const STATE_COLORS = { to_release: 'default', publishing: 'processing', published: 'cyan', released: 'success', failed: 'error' } as const;

export default function SendManagementPage() {
  const { t } = useMatrixT();
  const table = useRef<DataTableRef>(null);
  const [name, setName] = useState('');
  const [search, setSearch] = useSearchParams();
  // `?new=1` (RELEASE_FORM_PATH) opens the new-task form, e.g. with titles handed over by the SEO pages
  const [creating, setCreating] = useState(() => search.get('new') === '1');
  useEffect(() => {
    if (search.has('new')) setSearch((s) => (s.delete('new'), s), { replace: true });
  }, [search, setSearch]);
  const [sharing, setSharing] = useState(false);
  const [batch, setBatch] = useState<BatchSheet | null>(null);
  const [viewing, setViewing] = useState<Task | null>(null);
  const remove = useWrite(deleteTask, matrixKeys.all);

  const columns = useMemo<DataTableColumn<Task>[]>(
    () => [
      {
        title: t('task.name'),
        dataIndex: 'name',
        sorter: true,
        render: (v: string, row) => (
          <Space size={4}>
            <Typography.Link onClick={() => setViewing(row)} data-testid={`task-name-${row.id}`}>
              {v}
            </Typography.Link>
            {row.kind === 'image_note' ? (
              <Tag color="magenta" data-testid={`task-kind-${row.id}`}>
                {t('note.tag', { count: row.image_count })}
              </Tag>
            ) : null}
          </Space>
        ),
      },
      { title: t('task.platform'), dataIndex: 'platform', width: 110, render: (p: TaskPlatform, row) => <PlatformTag platform={p} testId={`task-platform-${row.id}`} /> },
      { title: t('task.review'), dataIndex: 'review_state', width: 190, sorter: true, render: (_, row) => <ReviewTag row={row} /> },
      {
        title: t('task.progress'),
        dataIndex: 'progress',
        width: 150,
        render: (p: number, row) => <Progress percent={Math.round(p ?? 0)} size="small" data-testid={`task-progress-${row.id}`} />,
      },
      {
        title: t('task.counts'),
        key: 'counts',
        width: 240,
        render: (_, row) => (
          <Space size={[0, 4]} wrap data-testid={`task-counts-${row.id}`}>
            {ITEM_STATES.filter((s) => s !== 'failed').map((s) => (
              <Tooltip key={s} title={t(`itemState.${s}`)}>
                <Tag color={STATE_COLORS[s]}>{row.counts?.[s] ?? 0}</Tag>
              </Tooltip>
            ))}
          </Space>
        ),
      },
      {
        title: t('task.failed'),
        dataIndex: 'failed',
        width: 90,
        sorter: true,
        render: (n: number, row) => (
          <Typography.Text type={n ? 'danger' : 'secondary'} data-testid={`task-failed-${row.id}`}>
            {n ?? 0}
          </Typography.Text>
        ),
      },
      { title: t('task.accountsVideos'), key: 'av', width: 110, render: (_, row) => `${row.accounts} / ${row.videos}` },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 160,
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EyeOutlined />} onClick={() => setViewing(row)} data-testid={`task-detail-${row.id}`}>
              {t('task.detail')}
            </Button>
            <Popconfirm
              title={t('detail.deleteConfirm', { name: row.name })}
              description={t('detail.deleteHelp')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `task-delete-ok-${row.id}` } as never}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`task-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => taskFilterFields(t), [t]);
  const params = useMemo(() => (name ? { name } : undefined), [name]);

  return (
    <div data-testid="send-management-page">
      <PageHeader
        title={t('common:menu.sendManagement')}
        subTitle={
          <Space size={12} wrap>
            {t('task.subtitle')}
            <TimeZoneNote />
          </Space>
        }
        extra={
          <Space>
            <Button icon={<ShareAltOutlined />} onClick={() => setSharing(true)} data-testid="share-new">
              {t('share.button')}
            </Button>
            <ImportButton<BatchSheet>
              api={matrixUrls.batchRead}
              templateApi={matrixUrls.batchTemplate}
              name="release-batch"
              label={t('batch.import')}
              hint={t('batch.hint')}
              onDone={setBatch}
              testId="batch-import"
            />
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="task-new">
              {t('task.new')}
            </Button>
          </Space>
        }
      />
      <DataTable<Task>
        ref={table}
        id="tasks"
        queryKey={matrixKeys.all}
        api={matrixUrls.tasks}
        exportApi={matrixUrls.tasksExport}
        method="post"
        params={params}
        columns={columns}
        filterFields={filterFields}
        scrollX={1400}
        toolbar={<Input.Search allowClear placeholder={t('task.search')} onSearch={(v) => setName(v.trim())} style={{ width: 240 }} data-testid="tasks-search" />}
      />
      <TaskForm
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(task: Task, plan: Plan) => {
          setCreating(false);
          feedback.success(
            task.review_due_at
              ? t('task.created', { name: task.name, count: plan?.count ?? task.counts?.total ?? 0, due: formatTime(task.review_due_at) })
              : t('task.createdNoDue', { name: task.name, count: plan?.count ?? task.counts?.total ?? 0 }),
          );
          // the new task is shown first; the create marked the list stale
          table.current?.toFirstPage();
        }}
      />
      <BatchImport
        sheet={batch}
        onClose={() => setBatch(null)}
        onCreated={(task, count) => {
          setBatch(null);
          feedback.success(t('batch.created', { name: task.name, count }));
          table.current?.toFirstPage();
        }}
      />
      <TaskDetail task={viewing} onClose={() => setViewing(null)} />
          <ShareModal open={sharing} onClose={() => setSharing(false)} />
    </div>
  );
}
