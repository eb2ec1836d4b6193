/**
 * /video — the multi-shot video library: the classify tree and the shot groups on the left, the chosen
 * group's clips and images on the right (poster, name, duration, resolution, state with live progress),
 * upload into the group (large videos resumable), play, subtitles (timeline editor), rename, delete.
 */
import { DeleteOutlined, EditOutlined, FileTextOutlined, PlayCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useMemo, useState, type Key } from 'react';
import {
  addClassify,
  deleteClassify,
  deleteClip,
  deleteClips,
  fetchClassifyTree,
  fetchGroups,
  materialsKeys,
  materialUrls,
  renameClassify,
  renameMaterial,
} from '@/api/materials';
import type { MediaFile } from '@/api/materials/types';
import { useMarkStale, useWrite } from '@/api/mutations';
import DataTable, { dimensionCell, DIMENSION_WIDTH, type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { clipFilterFields } from '../filters';
import { useMaterialsT } from '../i18n';
import CategoryTree, { subtreeIds } from '../shared/CategoryTree';
import { formatDuration, formatSize } from '../shared/format';
import MediaPlayerModal, { type PlayableMedia } from '../shared/MediaPlayerModal';
import { AsrStateTag, MediaStateTag } from '../shared/MediaStateTag';
import NameModal, { type NameRequest } from '../shared/NameModal';
import Thumb from '../shared/Thumb';
import UploadDialog from '../shared/UploadDialog';
import TimelineEditor, { type TimelineTarget } from '../shared/TimelineEditor';
import { mediaUploader } from '../shared/uploader';
import { useLiveRows } from '../shared/useMediaProgress';
import GroupPane, { UNGROUPED } from './GroupPane';
import '../shared/materials.css';

/** SPEC §5: videos up to 300 MB. */
const MAX_UPLOAD_MB = 300;
const ACCEPT = 'video/*,image/jpeg,image/png,image/gif,.mp4,.mov,.mkv,.avi,.flv';

export function playable(row: MediaFile): PlayableMedia {
  return { id: row.id, name: row.name, kind: row.kind, src: row.kind === 'video' && row.mezzanine ? row.mezzanine : row.src, poster: row.poster };
}

export default function VideoLibraryPage() {
  const { t } = useMaterialsT();
  const [classify, setClassify] = useState<number | undefined>();
  const [group, setGroup] = useState<number | undefined>();
  const [uploading, setUploading] = useState(false);
  const [playing, setPlaying] = useState<PlayableMedia | null>(null);
  const [timeline, setTimeline] = useState<TimelineTarget | null>(null);
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const [selected, setSelected] = useState<Key[]>([]);

  const tree = useQuery({ queryKey: [...materialsKeys.all, 'classifyTree'], queryFn: fetchClassifyTree });
  const groupsQuery = useQuery({ queryKey: [...materialsKeys.all, 'shotGroups'], queryFn: () => fetchGroups() });
  const classifyIds = useMemo(() => (classify === undefined ? undefined : new Set(subtreeIds(tree.data, classify))), [tree.data, classify]);
  const groups = useMemo(
    () => (groupsQuery.data?.rows ?? []).filter((g) => !classifyIds || classifyIds.has(g.classify_id)),
    [groupsQuery.data, classifyIds],
  );
  // the chosen group, else the first one, else "ungrouped"
  const current = group ?? groups[0]?.id ?? (groupsQuery.isPending ? undefined : UNGROUPED);
  const currentGroup = groupsQuery.data?.rows.find((g) => g.id === current);
  const groupName = current === UNGROUPED ? t('group.ungrouped') : (currentGroup?.name ?? '');

  // a write marks the area stale (the files, the groups' counts, the tree); a progress event that
  // settled a file (or polling while the stream is down) marks it stale too, for posters and counts
  const stale = useMarkStale(materialsKeys.all);
  const { merge, onLoad, status } = useLiveRows<MediaFile>(stale);
  const rename = useWrite(({ id, name }: { id: number; name: string }) => renameMaterial(id, name), materialsKeys.all);
  const removeOne = useWrite(deleteClip, materialsKeys.all);
  const removeMany = useWrite(deleteClips, materialsKeys.all);
  useEffect(() => setSelected([]), [current]);

  const columns = useMemo<DataTableColumn<MediaFile>[]>(
    () => [
      {
        title: t('columns.poster'),
        key: 'poster',
        width: 76,
        render: (_, row) => <Thumb row={row} onClick={() => setPlaying(playable(row))} />,
      },
      {
        title: t('columns.name'),
        dataIndex: 'name',
        sorter: true,
        width: 200,
        render: (name: string, row) => (
          <Space orientation="vertical" size={2}>
            <Typography.Text strong ellipsis style={{ maxWidth: 180 }} title={name} data-testid={`clip-name-${row.id}`}>
              {name}
            </Typography.Text>
            <Space size={4}>
              <Tag style={{ margin: 0 }}>{t(`kinds.${row.kind}`)}</Tag>
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {formatSize(row.size)}
              </Typography.Text>
            </Space>
          </Space>
        ),
      },
      { title: t('columns.kind'), dataIndex: 'kind', width: 80, render: (k: string) => <Tag>{t(`kinds.${k}`)}</Tag>, hide: true },
      { title: t('columns.duration'), dataIndex: 'duration_ms', width: 76, sorter: true, render: (ms: number, row) => (row.kind === 'video' ? formatDuration(ms) : '') },
      { title: t('columns.resolution'), key: 'resolution', width: DIMENSION_WIDTH, render: (_, row) => dimensionCell(row.width, row.height) },
      { title: t('columns.size'), dataIndex: 'size', width: 100, sorter: true, render: formatSize, hide: true },
      {
        title: t('columns.state'),
        dataIndex: 'state',
        width: 150,
        render: (_, raw) => {
          const row = merge(raw);
          return <MediaStateTag id={row.id} state={row.state} progress={row.progress} error={row.error} />;
        },
      },
      {
        title: t('columns.subtitles'),
        dataIndex: 'asr_state',
        width: 110,
        hide: true,
        render: (_, raw) => {
          const row = merge(raw);
          return row.kind === 'video' ? <AsrStateTag id={row.id} state={row.asr_state} error={row.asr_error} /> : null;
        },
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', render: formatTime, sorter: true, hide: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 156,
        render: (_, row) => (
          <Space size={0}>
            <Tooltip title={row.kind === 'image' ? t('actions.view') : t('actions.play')}>
              <Button
                type="text"
                size="small"
                icon={<PlayCircleOutlined />}
                aria-label={row.kind === 'image' ? t('actions.view') : t('actions.play')}
                onClick={() => setPlaying(playable(row))}
                data-testid={`clip-play-${row.id}`}
              />
            </Tooltip>
            {row.kind === 'video' ? (
              <Tooltip title={t('actions.subtitles')}>
                <Button
                  type="text"
                  size="small"
                  icon={<FileTextOutlined />}
                  aria-label={t('actions.subtitles')}
                  onClick={() => setTimeline({ id: row.id, name: row.name, kind: row.kind, duration_ms: row.duration_ms })}
                  data-testid={`clip-subtitles-${row.id}`}
                />
              </Tooltip>
            ) : null}
            <Tooltip title={t('rename')}>
              <Button
                type="text"
                size="small"
                icon={<EditOutlined />}
                aria-label={t('rename')}
                data-testid={`clip-rename-${row.id}`}
                onClick={() =>
                  setNaming({
                    title: t('rename'),
                    name: row.name,
                    max: 120,
                    submit: async (name) => {
                      await rename.mutateAsync({ id: row.id, name });
                      feedback.success(t('renamed'));
                    },
                  })
                }
              />
            </Tooltip>
            <Popconfirm
              title={t('deleteConfirm', { name: row.name })}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `clip-delete-ok-${row.id}` } as never}
              onConfirm={async () => {
                try {
                  await removeOne.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted (e.g. 'This material is in use by …') */
                }
              }}
            >
              <Button type="text" size="small" danger icon={<DeleteOutlined />} aria-label={t('common:delete')} data-testid={`clip-delete-${row.id}`} />
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, merge],
  );

  const filterFields = useMemo(() => clipFilterFields(t), [t]);
  const params = useMemo(() => (current === undefined ? undefined : { group_id: current }), [current]);
  const uploader = useMemo(
    () =>
      mediaUploader({
        action: materialUrls.uploadClip,
        data: current ? { group_id: current } : {},
        library: 'resource',
        groupId: current ?? 0,
      }),
    [current],
  );

  const deleteSelected = async () => {
    try {
      await removeMany.mutateAsync(selected.map(Number));
      feedback.success(t('common:deletedSuccessfully'));
      setSelected([]);
    } catch {
      /* toasted */
    }
  };

  return (
    <>
      <PageHeader title={t('common:menu.video')} subTitle={t('video.subtitle')} />
      <div className="cm-materials-layout">
        <div className="cm-materials-side">
          <CategoryTree
            title={t('classify.title')}
            testId="classify"
            nodes={tree.data}
            loading={tree.isFetching}
            selected={classify}
            onSelect={(id) => {
              setClassify(id);
              setGroup(undefined);
            }}
            onAdd={addClassify}
            onRename={renameClassify}
            onDelete={async (id) => {
              await deleteClassify(id);
              feedback.success(t('common:deletedSuccessfully'));
              if (classify !== undefined && subtreeIds(tree.data, id).includes(classify)) setClassify(undefined);
            }}
            deleteConfirm={(n) => t('classify.deleteConfirm', { name: n.name })}
            maxName={50}
            askName={setNaming}
          />
          <GroupPane
            groups={groups}
            loading={groupsQuery.isFetching}
            classifyId={classify}
            selected={current ?? UNGROUPED}
            onSelect={setGroup}
            askName={setNaming}
            onChanged={({ added, deleted }) => {
              if (added) setGroup(added.id);
              if (deleted !== undefined && deleted === current) setGroup(undefined);
            }}
          />
        </div>
        <div className="cm-materials-main">
          {current !== undefined ? (
            <DataTable<MediaFile>
              id="video"
              queryKey={materialsKeys.all}
              api={materialUrls.clips}
              exportApi={materialUrls.clipsExport}
              params={params}
              columns={columns}
              filterFields={filterFields}
              onLoad={onLoad}
              selectable
              onSelectionChange={(keys) => setSelected(keys)}
              scrollX={800}
              toolbar={
                <Space wrap>
                  <Typography.Title level={5} style={{ margin: 0 }} data-testid="video-group-title">
                    {groupName}
                  </Typography.Title>
                  <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="video-upload">
                    {t('upload.button')}
                  </Button>
                  <Popconfirm
                    title={t('deleteSelectedConfirm', { count: selected.length })}
                    okText={t('common:delete')}
                    cancelText={t('common:cancel')}
                    onConfirm={deleteSelected}
                    disabled={!selected.length}
                  >
                    <Button danger disabled={!selected.length} icon={<DeleteOutlined />} data-testid="video-delete-selected">
                      {t('deleteSelected')}
                    </Button>
                  </Popconfirm>
                  {status === 'down' ? (
                    <Tag color="warning" data-testid="video-stream-down">
                      {t('stream.polling')}
                    </Tag>
                  ) : null}
                </Space>
              }
            />
          ) : null}
        </div>
      </div>
      <UploadDialog
        open={uploading}
        title={t('upload.toGroup', { name: groupName })}
        hint={t('upload.videoHint')}
        onClose={() => setUploading(false)}
        uploader={uploader}
        accept={ACCEPT}
        maxSize={MAX_UPLOAD_MB}
        onUploaded={stale}
        testId="video-upload"
        queueKey={current}
      />
      <MediaPlayerModal media={playing} onClose={() => setPlaying(null)} />
      <TimelineEditor target={timeline} onClose={() => setTimeline(null)} />
      <NameModal request={naming} onClose={() => setNaming(null)} />
    </>
  );
}
