/**
 * One slicing project: its videos with their state and progress bar (polled every 2 s while any is
 * being sliced), start / retry / cancel / remove per video, add videos, and the slices made — play,
 * delete, and "add all to group" (moves every slice into another shot group).
 */
import { DeleteOutlined, PlayCircleOutlined, PlusOutlined, RedoOutlined, StopOutlined, CaretRightOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Drawer, Empty, Popconfirm, Progress, Select, Space, Table, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import {
  addSliceSources,
  cancelSliceSource,
  deleteSlices,
  fetchPickVideos,
  fetchSlices,
  fetchSliceSources,
  fetchVideoGroups,
  moveSlicesToGroup,
  removeSliceSource,
  startSliceProject,
  startSliceSource,
  type SliceProject,
  type SliceSource,
  type SliceVideo,
} from '@/api/clip/slice';
import { clipKeys } from '@/api/clip';
import { useWrite } from '@/api/mutations';
import { FullscreenModal } from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { formatDuration } from '../format';
import { useSliceT } from './i18n';
import { clock, POLL_MS } from './rules';
import { StateTag } from './StateTag';

export interface ProjectDetailProps {
  project: SliceProject | null;
  onClose: () => void;
  pollMs?: number;
}

const busy = (rows: readonly SliceSource[] | undefined) => (rows ?? []).some((s) => s.state === 'processing');

/** A change here marks the slicing stale: these lists and the project's row behind the drawer read again. */
export default function ProjectDetail({ project, onClose, pollMs = POLL_MS }: ProjectDetailProps) {
  const { t } = useSliceT();
  const client = useQueryClient();
  const id = project?.id ?? 0;
  const [adding, setAdding] = useState<number[]>([]);
  const [target, setTarget] = useState<number | undefined>();
  const [playing, setPlaying] = useState<SliceVideo | null>(null);

  const sources = useQuery({
    queryKey: [...clipKeys.slice, 'sources', id],
    queryFn: () => fetchSliceSources(id),
    enabled: id > 0,
    refetchInterval: (q) => (busy(q.state.data?.rows) ? pollMs : false),
  });
  const slicing = busy(sources.data?.rows);
  const slices = useQuery({
    queryKey: [...clipKeys.slice, 'slices', id],
    queryFn: () => fetchSlices(id),
    enabled: id > 0,
    refetchInterval: slicing ? pollMs : false,
  });
  // the slices poll only while a video is being sliced: when slicing ends, read them once more (the last
  // slices are written together with the finished state, after the last poll) and let the list catch up
  const wasSlicing = useRef(false);
  useEffect(() => {
    if (wasSlicing.current && !slicing) void client.invalidateQueries({ queryKey: clipKeys.slice });
    wasSlicing.current = slicing;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [slicing, id]);
  const groups = useQuery({ queryKey: [...clipKeys.slice, 'groups'], queryFn: fetchVideoGroups, enabled: id > 0 });
  const videos = useQuery({ queryKey: [...clipKeys.slice, 'videos'], queryFn: () => fetchPickVideos(), enabled: id > 0 });

  const write = useWrite((work: () => Promise<unknown>) => work(), clipKeys.slice);
  const starting = useWrite(startSliceProject, clipKeys.slice);
  const moving = useWrite(({ project: p, group }: { project: number; group: number }) => moveSlicesToGroup(p, group), clipKeys.slice);

  const act = async (work: () => Promise<unknown>, done: string) => {
    try {
      await write.mutateAsync(work);
      feedback.success(done);
    } catch {
      /* toasted by the request wrapper (422 while slicing, …) */
    }
  };

  const inProject = new Set((sources.data?.rows ?? []).map((s) => s.resource_id));
  const rows = sources.data?.rows ?? [];
  const sliceRows = slices.data?.rows ?? [];

  return (
    <Drawer
      open={project !== null}
      onClose={onClose}
      size={1000}
      title={project ? t('detail.title', { name: project.name }) : ''}
      destroyOnHidden
      data-testid="slice-detail"
    >
      {project ? (
        <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
          <Typography.Text type="secondary" data-testid="slice-detail-settings">
            {t('detail.settings', {
              mode: `${t(`mode.${project.mode}`)} (${
                project.mode === 'fixed'
                  ? t('detail.fixedSettings', { seconds: project.seconds })
                  : t('detail.subtitleSettings', { min: project.min_seconds, max: project.max_seconds })
              })`,
              group: project.group_name ?? t('groupDeleted'),
            })}
          </Typography.Text>
          <Space wrap>
            <Button
              type="primary"
              icon={<CaretRightOutlined />}
              onClick={() =>
                void (async () => {
                  try {
                    const r = await starting.mutateAsync(id);
                    feedback.success(r.queued ? t('done.queued', { count: r.queued }) : t('done.nothingQueued'));
                  } catch {
                    /* toasted */
                  }
                })()
              }
              data-testid="slice-start-all"
            >
              {t('actions.startAll')}
            </Button>
            <Select<number[]>
              mode="multiple"
              allowClear
              style={{ minWidth: 280 }}
              placeholder={t('form.videosPlaceholder')}
              value={adding}
              onChange={setAdding}
              showSearch={{ optionFilterProp: 'label' }}
              options={(videos.data?.rows ?? []).filter((m) => !inProject.has(m.id)).map((m) => ({ value: m.id, label: m.name }))}
              data-testid="slice-add-videos"
            />
            <Button
              icon={<PlusOutlined />}
              disabled={!adding.length}
              onClick={() =>
                void act(async () => {
                  const r = await addSliceSources(id, adding);
                  setAdding([]);
                  return r;
                }, t('done.added', { count: adding.length }))
              }
              data-testid="slice-add-videos-ok"
            >
              {t('actions.addVideos')}
            </Button>
            {slicing ? (
              <Typography.Text type="secondary" data-testid="slice-slicing">
                {t('detail.slicing', { count: rows.filter((s) => s.state === 'processing').length })}
              </Typography.Text>
            ) : null}
          </Space>
          <Table<SliceSource>
            size="small"
            rowKey="id"
            pagination={false}
            loading={sources.isLoading}
            dataSource={rows}
            columns={[
              { title: t('detail.sources'), dataIndex: 'name', ellipsis: true },
              {
                title: t('columns.state'),
                key: 'state',
                width: 260,
                render: (_, s) => (
                  <Space orientation="vertical" size={0} style={{ width: '100%' }} data-testid={`source-state-${s.id}`}>
                    <StateTag state={s.state} />
                    {s.state === 'processing' ? <Progress percent={s.progress} size="small" data-testid={`source-progress-${s.id}`} /> : null}
                    {s.error ? (
                      <Typography.Text type={s.state === 'failed' ? 'danger' : 'secondary'} style={{ fontSize: 12 }} ellipsis={{ tooltip: s.error }}>
                        {s.error}
                      </Typography.Text>
                    ) : null}
                  </Space>
                ),
              },
              { title: t('columns.slices'), dataIndex: 'slices', width: 80 },
              {
                title: t('common:actions'),
                key: 'actions',
                width: 200,
                render: (_, s) => (
                  <Space size={0}>
                    {s.state === 'processing' ? (
                      <Popconfirm
                        title={t('confirm.cancel')}
                        okText={t('actions.cancel')}
                        cancelText={t('common:cancel')}
                        okButtonProps={{ danger: true, 'data-testid': `source-cancel-ok-${s.id}` } as never}
                        onConfirm={() => act(() => cancelSliceSource(s.id), t('done.cancelled'))}
                      >
                        <Button type="link" size="small" danger icon={<StopOutlined />} data-testid={`source-cancel-${s.id}`}>
                          {t('actions.cancel')}
                        </Button>
                      </Popconfirm>
                    ) : (
                      <Button
                        type="link"
                        size="small"
                        icon={s.state === 'pending' ? <CaretRightOutlined /> : <RedoOutlined />}
                        onClick={() => void act(() => startSliceSource(s.id), t('done.started'))}
                        data-testid={`source-start-${s.id}`}
                      >
                        {s.state === 'pending' ? t('actions.start') : t('actions.retry')}
                      </Button>
                    )}
                    <Popconfirm
                      title={t('confirm.remove')}
                      okText={t('actions.remove')}
                      cancelText={t('common:cancel')}
                      disabled={s.state === 'processing'}
                      onConfirm={() => act(() => removeSliceSource(s.id), t('done.removed'))}
                    >
                      <Button type="link" size="small" danger disabled={s.state === 'processing'} data-testid={`source-remove-${s.id}`}>
                        {t('actions.remove')}
                      </Button>
                    </Popconfirm>
                  </Space>
                ),
              },
            ]}
          />
          <Space wrap style={{ justifyContent: 'space-between', width: '100%' }}>
            <Typography.Title level={5} style={{ margin: 0 }} data-testid="slice-count">
              {t('detail.slices', { count: slices.data?.total ?? 0 })}
            </Typography.Title>
            <Space>
              <Select<number>
                allowClear
                style={{ width: 200 }}
                placeholder={t('detail.moveTo')}
                value={target}
                onChange={setTarget}
                options={(groups.data?.rows ?? []).map((g) => ({ value: g.id, label: g.name }))}
                data-testid="slice-move-group"
              />
              <Button
                disabled={!target || !sliceRows.length}
                onClick={() =>
                  void (async () => {
                    try {
                      const r = await moving.mutateAsync({ project: id, group: target! });
                      feedback.success(t('done.moved', { count: r.moved, group: r.group_name }));
                    } catch {
                      /* toasted */
                    }
                  })()
                }
                data-testid="slice-move-all"
              >
                {t('actions.moveAll')}
              </Button>
            </Space>
          </Space>
          {sliceRows.length ? (
            <div className="cm-slice-grid" data-testid="slice-grid">
              {sliceRows.map((v) => (
                <Card
                  key={v.id}
                  size="small"
                  className="cm-slice-card"
                  cover={
                    v.poster ? (
                      <img src={v.poster} alt={v.name} className="cm-slice-poster cm-clickable" onClick={() => setPlaying(v)} />
                    ) : (
                      <div className="cm-slice-poster" />
                    )
                  }
                  actions={[
                    <Tooltip key="play" title={t('actions.play')}>
                      <Button type="text" size="small" icon={<PlayCircleOutlined />} onClick={() => setPlaying(v)} data-testid={`slice-play-${v.id}`} />
                    </Tooltip>,
                    <Popconfirm
                      key="delete"
                      title={t('confirm.deleteSlice')}
                      description={t('confirm.deleteSliceHelp')}
                      okText={t('common:delete')}
                      cancelText={t('common:cancel')}
                      okButtonProps={{ danger: true, 'data-testid': `slice-delete-ok-${v.id}` } as never}
                      onConfirm={() => act(() => deleteSlices([v.id]), t('done.deleted'))}
                    >
                      <Button type="text" size="small" danger icon={<DeleteOutlined />} data-testid={`slice-delete-${v.id}`} />
                    </Popconfirm>,
                  ]}
                  data-testid={`slice-card-${v.id}`}
                >
                  <Typography.Text ellipsis style={{ display: 'block' }} title={v.name}>
                    {v.name}
                  </Typography.Text>
                  <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                    {clock(v.start)}–{clock(v.end)} · {formatDuration(v.duration_ms)}
                  </Typography.Text>
                  {groups.data && v.group_id !== project.group_id ? (
                    <Tag style={{ marginTop: 4 }}>{groups.data.rows.find((g) => g.id === v.group_id)?.name ?? `#${v.group_id}`}</Tag>
                  ) : null}
                </Card>
              ))}
            </div>
          ) : (
            <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('detail.noSlices')} />
          )}
        </Space>
      ) : null}
      <FullscreenModal
        open={playing !== null}
        title={playing ? playing.name : ''}
        onCancel={() => setPlaying(null)}
        footer={null}
        width={480}
        testId="slice-player"
        destroyOnHidden
      >
        {playing ? (
          <div className="cm-player">
            <video
              key={playing.id}
              src={playing.mezzanine ?? playing.src}
              poster={playing.poster ?? undefined}
              controls
              autoPlay
              playsInline
              data-testid="slice-video"
            />
            <Typography.Text type="secondary">
              {t('detail.from', { name: playing.source_name ?? '', start: clock(playing.start), end: clock(playing.end) })}
            </Typography.Text>
          </div>
        ) : null}
      </FullscreenModal>
    </Drawer>
  );
}
