/**
 * The "voice tasks" tab (docs/api-ai.md `taskList`): state with progress (moved by the `tts` events of
 * `/api/events`), length, play, download, import into the voice-over library (/speak), delete.
 */
import { DeleteOutlined, DownloadOutlined, ImportOutlined } from '@ant-design/icons';
import { Button, Popconfirm, Progress, Space, Tag, Tooltip } from 'antd';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { aiKeys, aiUrls, deleteTask, fetchVoices, importTask } from '@/api/ai';
import { materialsKeys } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import type { Task } from '@/api/ai/types';
import { subscribeMediaEvents } from '@/api/materials/events';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import { dateRangeField, optionsField, textField } from '@/components/FilterDrawer/fields';
import type { FilterField } from '@/components/FilterDrawer/model';
import { formatTime } from '@/utils/format';
import { feedback } from '@/utils/feedback';
import { useAiT } from '../i18n';
import { clock } from '../rules';

const COLOURS = { queued: 'default', running: 'processing', done: 'success', failed: 'error' } as const;

export default function TasksPanel() {
  const { t } = useAiT();
  const tableRef = useRef<DataTableRef>(null);
  // an imported task lands in the voice-over library (/speak) too
  const importing = useWrite(importTask, aiKeys.tasks, materialsKeys.all);
  const removal = useWrite(deleteTask, aiKeys.tasks);

  // the voice's name, not its engine id ("zf_xiaoxiao"); the same list the create tab shows
  const voices = useQuery({ queryKey: aiKeys.voices, queryFn: fetchVoices, staleTime: 60_000 });
  const voiceNames = useMemo(() => new Map((voices.data?.rows ?? []).map((v) => [v.id, v.name])), [voices.data]);

  // A task's progress or end (an event, nothing written here) reads the list again.
  useEffect(() => subscribeMediaEvents({ onTts: () => tableRef.current?.refresh() }), [tableRef]);

  const columns = useMemo<DataTableColumn<Task>[]>(
    () => [
      { title: t('task.name'), dataIndex: 'name', width: 200, render: (v: string, row) => <span data-testid={`task-name-${row.id}`}>{v}</span> },
      {
        title: t('task.voice'),
        dataIndex: 'voice',
        width: 130,
        render: (v: string, row) => <span data-testid={`task-voice-${row.id}`}>{voiceNames.get(v) ?? v}</span>,
      },
      { title: t('task.chars'), dataIndex: 'chars', width: 80 },
      { title: t('task.points'), dataIndex: 'points', width: 70 },
      {
        title: t('task.state'),
        dataIndex: 'state',
        width: 170,
        render: (v: Task['state'], row) => (
          <Space orientation="vertical" size={0} data-testid={`task-state-${row.id}`}>
            <Tooltip title={row.reason || undefined}>
              <Tag color={COLOURS[v]}>{t(`task.states.${v}`)}</Tag>
            </Tooltip>
            {v === 'running' && <Progress percent={row.progress} size="small" />}
            {v === 'failed' && <span data-testid={`task-reason-${row.id}`}>{row.reason}</span>}
          </Space>
        ),
      },
      { title: t('task.duration'), dataIndex: 'duration_ms', width: 80, render: (v: number) => (v ? clock(v) : '-') },
      {
        title: t('task.play'),
        dataIndex: 'src',
        width: 260,
        render: (src: string | null, row) =>
          src ? (
            <Space orientation="vertical" size={0}>
              <audio controls src={src} style={{ height: 32, width: 220, maxWidth: '100%' }} data-testid={`task-audio-${row.id}`} />
              <span>{t('task.lines', { count: row.lines.length })}</span>
            </Space>
          ) : (
            '-'
          ),
      },
      { title: t('task.createdAt'), dataIndex: 'created_at', width: 170, render: formatTime },
      {
        title: '',
        key: 'actions',
        width: 220,
        fixed: 'right',
        render: (_: unknown, row) => (
          <Space>
            {row.src && (
              <Button size="small" icon={<DownloadOutlined />} href={row.src} download={`${row.name}.m4a`} data-testid={`task-download-${row.id}`} title={t('task.download')} />
            )}
            {row.state === 'done' &&
              (row.media_id ? (
                <Tag color="green" data-testid={`task-imported-${row.id}`}>
                  {t('task.importedTag')}
                </Tag>
              ) : (
                <Button
                  size="small"
                  icon={<ImportOutlined />}
                  data-testid={`task-import-${row.id}`}
                  onClick={() =>
                    importing.mutate(row.id, { onSuccess: () => feedback.success(t('task.imported')) })
                  }
                >
                  {t('task.import')}
                </Button>
              ))}
            {(row.state === 'done' || row.state === 'failed') && (
              <Popconfirm
                title={t('task.deleteConfirm')}
                onConfirm={() => removal.mutateAsync(row.id)}
                okButtonProps={{ danger: true, 'data-testid': `task-delete-${row.id}-ok` } as never}
              >
                <Button size="small" danger icon={<DeleteOutlined />} data-testid={`task-delete-${row.id}`} title={t('task.delete')} />
              </Popconfirm>
            )}
          </Space>
        ),
      },
    ],
    [t, voiceNames],
  );

  const filterFields = useMemo<FilterField[]>(
    () => [
      textField('text', t('task.filterText'), { selected: true }),
      optionsField(
        'state',
        t('task.filterState'),
        (['queued', 'running', 'done', 'failed'] as const).map((s) => ({ value: s, label: t(`task.states.${s}`) })),
      ),
      dateRangeField('created_at', t('task.createdAt')),
    ],
    [t],
  );

  return <DataTable<Task> ref={tableRef} id="ai-tasks" queryKey={aiKeys.tasks} api={aiUrls.tasks} method="post" columns={columns} filterFields={filterFields} scrollX={1400} />;
}
