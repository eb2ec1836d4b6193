/**
 * /batch_slice — visual editing / batch slice (docs/api-clip.md "Batch slice"): slicing
 * projects that cut long videos by fixed lengths or along their subtitles, straight into a shot group.
 * The list (the table kit: name, state, created_at filters), create / settings in a dialog, start all,
 * delete, and a detail drawer per project with its videos' progress and the slices made. While any video
 * of a shown project is being sliced the list reloads every 2 s.
 */
import { CaretRightOutlined, DeleteOutlined, EditOutlined, FolderOpenOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { clipKeys } from '@/api/clip';
import { deleteSliceProject, sliceUrls, startSliceProject, type SliceProject } from '@/api/clip/slice';
import { useWrite } from '@/api/mutations';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import { dateRangeField, optionsField, textField } from '@/components/FilterDrawer/fields';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useSliceT } from './i18n';
import ProjectDetail from './ProjectDetail';
import { POLL_MS, sourcesSummary } from './rules';
import SliceForm from './SliceForm';
import { StateTag } from './StateTag';
import '../clip.css';
import './batchSlice.css';

const STATES = ['pending', 'processing', 'success', 'failed'] as const;

export default function BatchSlicePage({ pollMs = POLL_MS }: { pollMs?: number }) {
  const { t } = useSliceT();
  const table = useRef<DataTableRef>(null);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<SliceProject | null | undefined>(undefined);
  const [open, setOpen] = useState<SliceProject | null>(null);
  const [loaded, setLoaded] = useState({ n: 0, slicing: false });

  // polling while a project is sliced: nothing was written, the rows are read again
  const refresh = useCallback(() => table.current?.refresh(), []);
  const starting = useWrite(startSliceProject, clipKeys.slice);
  const removal = useWrite(deleteSliceProject, clipKeys.slice);

  useEffect(() => {
    if (!loaded.slicing) return;
    const timer = setTimeout(refresh, pollMs);
    return () => clearTimeout(timer);
  }, [loaded, refresh, pollMs]);

  const startAll = async (p: SliceProject) => {
    try {
      const r = await starting.mutateAsync(p.id);
      feedback.success(r.queued ? t('done.queued', { count: r.queued }) : t('done.nothingQueued'));
    } catch {
      /* toasted */
    }
  };

  const remove = async (p: SliceProject) => {
    try {
      await removal.mutateAsync(p.id);
      feedback.success(t('done.deleted'));
      // back to page 1 with the selection cleared; the delete marked the list stale
      table.current?.toFirstPage();
    } catch {
      /* toasted (422 while slicing) */
    }
  };

  const columns = useMemo<DataTableColumn<SliceProject>[]>(
    () => [
      { title: 'ID', dataIndex: 'id', width: 70, hide: true },
      {
        title: t('columns.name'),
        dataIndex: 'name',
        width: 200,
        ellipsis: true,
        sorter: true,
        render: (_, p) => (
          <Typography.Link onClick={() => setOpen(p)} data-testid={`slice-project-${p.id}`}>
            {p.name}
          </Typography.Link>
        ),
      },
      {
        title: t('columns.mode'),
        dataIndex: 'mode',
        width: 200,
        render: (_, p) => (
          <Space size={4} wrap>
            <Tag>{t(`mode.${p.mode}`)}</Tag>
            <Typography.Text type="secondary">
              {p.mode === 'fixed'
                ? t('detail.fixedSettings', { seconds: p.seconds })
                : t('detail.subtitleSettings', { min: p.min_seconds, max: p.max_seconds })}
            </Typography.Text>
          </Space>
        ),
      },
      { title: t('columns.group'), dataIndex: 'group_name', width: 150, render: (g: string | null) => g ?? t('groupDeleted') },
      {
        title: t('columns.sources'),
        key: 'sources',
        width: 120,
        render: (_, p) => {
          const s = sourcesSummary(p.sources);
          return (
            <span data-testid={`slice-sources-${p.id}`}>
              {s.success}/{s.total}
            </span>
          );
        },
      },
      { title: t('columns.slices'), dataIndex: 'slices', width: 90 },
      {
        title: t('columns.state'),
        dataIndex: 'state',
        width: 110,
        sorter: true,
        render: (_, p) => (
          <span data-testid={`slice-state-${p.id}`}>
            <StateTag state={p.state} />
          </span>
        ),
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 280,
        render: (_, p) => {
          const running = p.state === 'processing';
          return (
            <Space size={0} wrap>
              <Button type="link" size="small" icon={<FolderOpenOutlined />} onClick={() => setOpen(p)} data-testid={`slice-open-${p.id}`}>
                {t('actions.open')}
              </Button>
              <Button
                type="link"
                size="small"
                icon={<CaretRightOutlined />}
                disabled={p.state === 'success' || running}
                onClick={() => void startAll(p)}
                data-testid={`slice-start-${p.id}`}
              >
                {t('actions.startAll')}
              </Button>
              <Button type="link" size="small" icon={<EditOutlined />} disabled={running} onClick={() => setEditing(p)} data-testid={`slice-edit-${p.id}`}>
                {t('actions.settings')}
              </Button>
              <Popconfirm
                title={t('confirm.deleteProject')}
                description={t('confirm.deleteProjectHelp')}
                okText={t('common:delete')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, 'data-testid': `slice-delete-ok-${p.id}` } as never}
                onConfirm={() => remove(p)}
                disabled={running}
              >
                <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={running} data-testid={`slice-delete-${p.id}`}>
                  {t('common:delete')}
                </Button>
              </Popconfirm>
            </Space>
          );
        },
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  const filterFields = useMemo(
    () => [
      textField('name', t('columns.name'), { selected: true }),
      optionsField(
        'state',
        t('columns.state'),
        STATES.map((s) => ({ value: s, label: t(`state.${s}`) })),
      ),
      dateRangeField('created_at', t('common:createdAt')),
    ],
    [t],
  );
  const params = useMemo(() => (name.trim() ? { name: name.trim() } : undefined), [name]);

  return (
    <div className="cm-clip-page" data-testid="batch-slice-page">
      <PageHeader
        title={t('common:menu.batchSlice')}
        subTitle={t('subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="slice-create">
            {t('create')}
          </Button>
        }
      />
      <DataTable<SliceProject>
        ref={table}
        id="batchSlice"
        queryKey={clipKeys.slice}
        api={sliceUrls.projects}
        params={params}
        columns={columns}
        filterFields={filterFields}
        scrollX={1320}
        onLoad={(list) => {
          const slicing = list.rows.some((p) => p.state === 'processing');
          setLoaded((prev) => ({ n: prev.n + 1, slicing }));
          // keep the open detail's settings current
          setOpen((cur) => (cur ? (list.rows.find((p) => p.id === cur.id) ?? cur) : cur));
        }}
        toolbar={
          <Input.Search
            allowClear
            placeholder={t('searchName')}
            onSearch={setName}
            style={{ width: 220 }}
            data-testid="slice-search"
          />
        }
      />
      <SliceForm
        open={editing !== undefined}
        project={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={(p) => {
          const created = editing === null;
          setEditing(undefined);
          // back to page 1 (a new project is shown first); the save marked the list stale
          table.current?.toFirstPage();
          if (created) setOpen(p);
        }}
      />
      <ProjectDetail project={open} onClose={() => setOpen(null)} pollMs={pollMs} />
    </div>
  );
}
