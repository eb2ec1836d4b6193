/**
 * /image — the image library: categories on the left (the image tree: add, add below, rename, delete),
 * the images on the right (thumbnail with preview, category, resolution, size), upload through the
 * widget kit's multi-image uploader (crop dialog) into the chosen category, rename, delete.
 */
import { UploadOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Image, Space, Tag, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import {
  addFileType,
  deleteFiles,
  deleteFileType,
  fetchImageTree,
  materialsKeys,
  materialUrls,
  renameFileType,
  renameMaterial,
  setImageType,
} from '@/api/materials';
import type { MediaFile } from '@/api/materials/types';
import { useMarkStale, useWrite } from '@/api/mutations';
import DataTable, { dimensionCell, DIMENSION_WIDTH, type DataTableColumn } from '@/components/DataTable';
import { FullscreenModal } from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import MultiImageUpload from '@/components/Upload/MultiImageUpload';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { imageFilterFields } from '../filters';
import { useMaterialsT } from '../i18n';
import CategorySelect from '../shared/CategorySelect';
import CategoryTree, { subtreeIds, type CategoryNode } from '../shared/CategoryTree';
import { formatSize } from '../shared/format';
import RenameDeleteActions from '../shared/RenameDeleteActions';
import NameModal, { type NameRequest } from '../shared/NameModal';
import '../shared/materials.css';

/** Images at most 10 MB, jpg / png / gif (SPEC §5). */
const MAX_IMAGE_MB = 10;
/** Images per upload dialog. */
const UPLOAD_LIMIT = 20;

function findName(nodes: readonly CategoryNode[], id: number): string | undefined {
  for (const n of nodes) {
    if (n.id === id) return n.name;
    const inner = findName(n.children ?? [], id);
    if (inner) return inner;
  }
  return undefined;
}

export default function ImageLibraryPage() {
  const { t } = useMaterialsT();
  const [category, setCategory] = useState<number | undefined>();
  const [uploading, setUploading] = useState(false);
  const [uploadRound, setUploadRound] = useState(0);
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const uploadedIds = useRef(new Map<string, number>());
  const tree = useQuery({ queryKey: [...materialsKeys.all, 'imageTree'], queryFn: fetchImageTree });
  const nodes = useMemo(() => tree.data ?? [], [tree.data]);
  const move = useWrite(({ id, type }: { id: number; type: number }) => setImageType(id, type), materialsKeys.all);
  const removeUploads = useWrite(deleteFiles, materialsKeys.all);
  const uploaded = useMarkStale(materialsKeys.all);

  const columns = useMemo<DataTableColumn<MediaFile>[]>(
    () => [
      {
        title: t('columns.thumbnail'),
        key: 'thumb',
        width: 96,
        render: (_, row) => (
          <Image src={row.src} alt={row.name} width={64} height={64} style={{ objectFit: 'cover', borderRadius: 4 }} data-testid={`image-thumb-${row.id}`} />
        ),
      },
      {
        title: t('columns.name'),
        dataIndex: 'name',
        sorter: true,
        render: (name: string, row) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong data-testid={`image-name-${row.id}`}>
              {name}
            </Typography.Text>
            {row.original_name && row.original_name !== name ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {row.original_name}
              </Typography.Text>
            ) : null}
          </Space>
        ),
      },
      {
        title: t('columns.category'),
        dataIndex: 'file_type_id',
        width: 170,
        render: (id: number, row) => (
          <CategorySelect
            id={row.id}
            value={id}
            nodes={nodes}
            onChange={async (next) => {
              try {
                await move.mutateAsync({ id: row.id, type: next });
                feedback.success(t('category.moved'));
              } catch {
                /* toasted */
              }
            }}
          />
        ),
      },
      { title: t('columns.resolution'), key: 'resolution', width: DIMENSION_WIDTH, render: (_, row) => dimensionCell(row.width, row.height) },
      { title: t('columns.size'), dataIndex: 'size', width: 100, sorter: true, render: formatSize },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime, sorter: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 170,
        render: (_, row) => (
          <RenameDeleteActions prefix="image" row={row} askName={setNaming} rename={renameMaterial} remove={(id) => deleteFiles([id])} />
        ),
      },
    ],
    [t, nodes],
  );

  const filterFields = useMemo(() => imageFilterFields(t), [t]);
  const params = useMemo(
    () => (category === undefined ? undefined : { filterObj: { file_type_id: `${subtreeIds(nodes, category).join(',')}|include` } }),
    [category, nodes],
  );
  const categoryName = category !== undefined ? findName(nodes, category) : undefined;

  // an image removed from the upload dialog's list is deleted again
  const onUploadList = (srcs: string[]) => {
    const keep = new Set(srcs);
    const removed = [...uploadedIds.current.entries()].filter(([src]) => !keep.has(src));
    if (!removed.length) return;
    for (const [src] of removed) uploadedIds.current.delete(src);
    removeUploads.mutate(removed.map(([, id]) => id));
  };

  return (
    <>
      <PageHeader
        title={t('common:menu.image')}
        subTitle={t('image.subtitle')}
        extra={
          <Button
            type="primary"
            icon={<UploadOutlined />}
            onClick={() => {
              uploadedIds.current.clear();
              setUploadRound((n) => n + 1);
              setUploading(true);
            }}
            data-testid="image-upload"
          >
            {t('upload.button')}
          </Button>
        }
      />
      <div className="cm-materials-layout">
        <div className="cm-materials-side">
          <CategoryTree
            title={t('category.title')}
            testId="image-category"
            nodes={nodes}
            loading={tree.isFetching}
            selected={category}
            onSelect={(id) => setCategory(id)}
            askName={setNaming}
            onAdd={(name, parentId) => addFileType('image', name, parentId)}
            onRename={renameFileType}
            onDelete={async (id) => {
              await deleteFileType(id);
              feedback.success(t('common:deletedSuccessfully'));
              if (category !== undefined && subtreeIds(nodes, id).includes(category)) setCategory(undefined);
            }}
          />
        </div>
        <div className="cm-materials-main">
          <DataTable<MediaFile>
            id="image"
            queryKey={materialsKeys.all}
            api={materialUrls.images}
            exportApi={materialUrls.imagesExport}
            params={params}
            columns={columns}
            filterFields={filterFields}
            scrollX={1000}
            toolbar={categoryName ? <Tag color="blue">{categoryName}</Tag> : null}
          />
        </div>
      </div>
      <FullscreenModal
        open={uploading}
        title={categoryName ? t('upload.imagesInto', { name: categoryName }) : t('upload.imagesTitle')}
        onCancel={() => setUploading(false)}
        footer={null}
        width={760}
        testId="image-upload-dialog"
      >
        <Typography.Paragraph type="secondary">{t('upload.imageHint')}</Typography.Paragraph>
        <MultiImageUpload
          key={uploadRound}
          action={materialUrls.uploadFile}
          data={{ type: 'image' }}
          limit={UPLOAD_LIMIT}
          maxSize={MAX_IMAGE_MB}
          onChange={onUploadList}
          onUploaded={async (data) => {
            const file = data as unknown as MediaFile;
            if (typeof file.id === 'number') {
              uploadedIds.current.set(file.src, file.id);
              if (category !== undefined) await setImageType(file.id, category).catch(() => undefined);
            }
            uploaded();
          }}
          testId="image-upload-list"
        />
      </FullscreenModal>
      <NameModal request={naming} onClose={() => setNaming(null)} />
    </>
  );
}
