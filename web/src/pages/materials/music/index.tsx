/**
 * /music — my music (category = file type, size, preview) with the categories on the left
 * (bpdr.merchant_file_type audio: add, rename, delete), upload (into the chosen category), and the
 * operator's built-in music with "add to my library" (clip.merchant_music_library/save).
 */
import { PlusCircleOutlined, UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Tabs, Tag, Typography } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import {
  addFileType,
  copySystemMusic,
  deleteFiles,
  deleteFileType,
  fetchFileTypes,
  materialsKeys,
  materialUrls,
  renameFileType,
  renameMaterial,
  setMusicType,
} from '@/api/materials';
import type { MediaFile, SystemMusic } from '@/api/materials/types';
import { useMarkStale, useWrite } from '@/api/mutations';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { musicFilterFields, systemMusicFilterFields } from '../filters';
import { useMaterialsT } from '../i18n';
import CategorySelect from '../shared/CategorySelect';
import CategoryTree, { subtreeIds, treeOf } from '../shared/CategoryTree';
import { formatDuration, formatSize } from '../shared/format';
import InlineAudio from '../shared/InlineAudio';
import { MediaStateTag } from '../shared/MediaStateTag';
import RenameDeleteActions from '../shared/RenameDeleteActions';
import NameModal, { type NameRequest } from '../shared/NameModal';
import UploadDialog from '../shared/UploadDialog';
import { mediaUploader } from '../shared/uploader';
import { useLiveRows } from '../shared/useMediaProgress';
import '../shared/materials.css';

const MAX_UPLOAD_MB = 100;
const ACCEPT = 'audio/*,.mp3,.m4a,.aac,.wav,.ogg,.flac';

export default function MusicPage() {
  const { t } = useMaterialsT();
  const [tab, setTab] = useState<'mine' | 'builtin'>('mine');
  const mine = useRef<DataTableRef>(null);
  const [category, setCategory] = useState<number | undefined>();
  const [uploading, setUploading] = useState(false);
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const types = useQuery({ queryKey: [...materialsKeys.all, 'fileTypes', 'audio'], queryFn: () => fetchFileTypes('audio') });
  const nodes = useMemo(() => treeOf(types.data?.rows ?? []), [types.data]);
  const names = useMemo(() => new Map((types.data?.rows ?? []).map((r) => [r.id, r.name])), [types.data]);

  // progress events and polling read the rows again; a write marks the area stale
  const refresh = useCallback(() => mine.current?.refresh(), []);
  const { merge, onLoad } = useLiveRows<MediaFile>(refresh);
  const move = useWrite(({ id, type }: { id: number; type: number }) => setMusicType(id, type), materialsKeys.all);
  const copy = useWrite(({ id, type }: { id: number; type?: number }) => copySystemMusic(id, type), materialsKeys.all);
  const uploaded = useMarkStale(materialsKeys.all);

  const moveTo = async (row: MediaFile, fileTypeId: number) => {
    try {
      await move.mutateAsync({ id: row.id, type: fileTypeId });
      feedback.success(t('category.moved'));
    } catch {
      /* toasted */
    }
  };

  const columns = useMemo<DataTableColumn<MediaFile>[]>(
    () => [
      {
        title: t('columns.name'),
        dataIndex: 'name',
        sorter: true,
        render: (name: string, row) => (
          <Typography.Text strong data-testid={`music-name-${row.id}`}>
            {name}
          </Typography.Text>
        ),
      },
      {
        title: t('columns.category'),
        dataIndex: 'file_type_id',
        width: 170,
        render: (id: number, row) => <CategorySelect id={row.id} value={id} nodes={nodes} onChange={(next) => void moveTo(row, next)} />,
      },
      { title: t('columns.size'), dataIndex: 'size', width: 100, sorter: true, render: formatSize },
      { title: t('columns.duration'), dataIndex: 'duration_ms', width: 90, sorter: true, render: formatDuration },
      { title: t('columns.preview'), key: 'preview', width: 260, render: (_, row) => <InlineAudio id={row.id} src={row.src} /> },
      {
        title: t('columns.state'),
        dataIndex: 'state',
        width: 150,
        render: (_, raw) => {
          const row = merge(raw);
          return <MediaStateTag id={row.id} state={row.state} progress={row.progress} error={row.error} />;
        },
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime, sorter: true, hide: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 170,
        render: (_, row) => (
          <RenameDeleteActions prefix="music" row={row} askName={setNaming} rename={renameMaterial} remove={(id) => deleteFiles([id])} />
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, merge, nodes],
  );

  const builtinColumns = useMemo<DataTableColumn<SystemMusic>[]>(
    () => [
      { title: t('columns.name'), dataIndex: 'name', sorter: true },
      { title: t('columns.category'), dataIndex: 'category', width: 140, render: (c: string) => (c ? <Tag>{c}</Tag> : null) },
      { title: t('columns.duration'), dataIndex: 'duration_ms', width: 90, sorter: true, render: formatDuration },
      { title: t('columns.size'), dataIndex: 'size', width: 100, render: formatSize },
      { title: t('columns.preview'), key: 'preview', width: 260, render: (_, row) => <InlineAudio id={row.id} src={row.src} /> },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 160,
        render: (_, row) => (
          <Button
            type="link"
            size="small"
            icon={<PlusCircleOutlined />}
            data-testid={`builtin-add-${row.id}`}
            onClick={async () => {
              try {
                await copy.mutateAsync({ id: row.id, type: category });
                feedback.success(t('music.added', { name: row.name }));
              } catch {
                /* toasted */
              }
            }}
          >
            {t('music.addToMine')}
          </Button>
        ),
      },
    ],
    [t, category],
  );

  const filterFields = useMemo(() => musicFilterFields(t), [t]);
  const builtinFilters = useMemo(() => systemMusicFilterFields(t), [t]);
  const params = useMemo(
    () => (category === undefined ? undefined : { filterObj: { file_type_id: `${subtreeIds(nodes, category).join(',')}|include` } }),
    [category, nodes],
  );
  const uploader = useMemo(
    () =>
      mediaUploader({
        action: materialUrls.uploadFile,
        data: { type: 'music' },
        library: 'music',
        onStored: async (file) => {
          if (category !== undefined) await setMusicType(file.id, category).catch(() => undefined);
        },
      }),
    [category],
  );
  const categoryName = category !== undefined ? names.get(category) : undefined;

  return (
    <>
      <PageHeader
        title={t('common:menu.music')}
        subTitle={t('music.subtitle')}
        extra={
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="music-upload">
            {t('upload.button')}
          </Button>
        }
      />
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as 'mine' | 'builtin')}
        items={[
          {
            key: 'mine',
            label: <span data-testid="music-tab-mine">{t('music.mine')}</span>,
            children: (
              <div className="cm-materials-layout">
                <div className="cm-materials-side">
                  <CategoryTree
                    title={t('category.title')}
                    testId="music-category"
                    nodes={nodes}
                    loading={types.isFetching}
                    selected={category}
                    onSelect={(id) => setCategory(id)}
                    askName={setNaming}
                    nested={false}
                    onAdd={(name, parentId) => addFileType('audio', name, parentId)}
                    onRename={renameFileType}
                    onDelete={async (id) => {
                      await deleteFileType(id);
                      feedback.success(t('common:deletedSuccessfully'));
                      if (category === id) setCategory(undefined);
                    }}
                  />
                </div>
                <div className="cm-materials-main">
                  <DataTable<MediaFile>
                    id="music"
                    ref={mine}
                    queryKey={materialsKeys.all}
                    api={materialUrls.music}
                    exportApi={materialUrls.musicExport}
                    params={params}
                    columns={columns}
                    filterFields={filterFields}
                    onLoad={onLoad}
                    scrollX={1100}
                    toolbar={categoryName ? <Tag color="blue">{categoryName}</Tag> : null}
                  />
                </div>
              </div>
            ),
          },
          {
            key: 'builtin',
            label: <span data-testid="music-tab-builtin">{t('music.builtin')}</span>,
            children: (
              <DataTable<SystemMusic>
                id="builtin-music"
                api={materialUrls.systemMusic}
                columns={builtinColumns}
                filterFields={builtinFilters}
                scrollX={900}
                toolbar={categoryName ? <Typography.Text type="secondary">{t('music.addsInto', { name: categoryName })}</Typography.Text> : null}
              />
            ),
          },
        ]}
      />
      <UploadDialog
        open={uploading}
        title={categoryName ? t('upload.musicInto', { name: categoryName }) : t('upload.musicTitle')}
        hint={t('upload.audioHint')}
        onClose={() => setUploading(false)}
        uploader={uploader}
        accept={ACCEPT}
        maxSize={MAX_UPLOAD_MB}
        onUploaded={uploaded}
        testId="music-upload"
        queueKey={category ?? 0}
      />
      <NameModal request={naming} onClose={() => setNaming(null)} />
    </>
  );
}
