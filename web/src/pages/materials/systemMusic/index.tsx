/**
 * /system/music — the operator's built-in music set that merchants copy into their music library:
 * list (filters), upload (name, category, audio file), preview, delete (copies already taken stay).
 */
import { DeleteOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { deleteOperatorMusic, materialsKeys, materialUrls } from '@/api/materials';
import { useMarkStale, useWrite } from '@/api/mutations';
import type { SystemMusic } from '@/api/materials/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { systemMusicFilterFields } from '../filters';
import { useMaterialsT } from '../i18n';
import { formatDuration, formatSize } from '../shared/format';
import InlineAudio from '../shared/InlineAudio';
import UploadDialog from '../shared/UploadDialog';
import { mediaUploader } from '../shared/uploader';

const MAX_UPLOAD_MB = 100;
const ACCEPT = 'audio/*,.mp3,.m4a,.aac,.wav,.ogg,.flac';

export default function SystemMusicPage() {
  const { t } = useMaterialsT();
  const [uploading, setUploading] = useState(false);
  const [name, setName] = useState('');
  const [category, setCategory] = useState('');
  const remove = useWrite(deleteOperatorMusic, materialsKeys.all);
  const uploaded = useMarkStale(materialsKeys.all);

  const columns = useMemo<DataTableColumn<SystemMusic>[]>(
    () => [
      { title: 'ID', dataIndex: 'id', width: 80, sorter: true },
      { title: t('columns.name'), dataIndex: 'name', sorter: true },
      { title: t('columns.category'), dataIndex: 'category', width: 140, render: (c: string) => (c ? <Tag>{c}</Tag> : null) },
      { title: t('columns.duration'), dataIndex: 'duration_ms', width: 90, sorter: true, render: formatDuration },
      { title: t('columns.size'), dataIndex: 'size', width: 100, render: formatSize },
      { title: t('columns.preview'), key: 'preview', width: 260, render: (_, row) => <InlineAudio id={row.id} src={row.src} /> },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime, sorter: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 100,
        render: (_, row) => (
          <Popconfirm
            title={t('systemMusic.deleteConfirm', { name: row.name })}
            okText={t('common:delete')}
            cancelText={t('common:cancel')}
            okButtonProps={{ danger: true, 'data-testid': `system-music-delete-ok-${row.id}` } as never}
            onConfirm={async () => {
              try {
                await remove.mutateAsync(row.id);
                feedback.success(t('common:deletedSuccessfully'));
              } catch {
                /* toasted */
              }
            }}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`system-music-delete-${row.id}`}>
              {t('common:delete')}
            </Button>
          </Popconfirm>
        ),
      },
    ],
    [t],
  );

  const filterFields = useMemo(() => systemMusicFilterFields(t), [t]);
  const uploader = useMemo(() => {
    const data: Record<string, string> = {};
    if (name.trim()) data.name = name.trim();
    if (category.trim()) data.category = category.trim();
    return mediaUploader({ action: materialUrls.uploadOperatorMusic, data });
  }, [name, category]);

  return (
    <>
      <PageHeader
        title={t('common:menu.systemMusic')}
        subTitle={t('systemMusic.subtitle')}
        extra={
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="system-music-upload">
            {t('upload.button')}
          </Button>
        }
      />
      <DataTable<SystemMusic> id="system-music" queryKey={materialsKeys.all} api={materialUrls.operatorMusic} columns={columns} filterFields={filterFields} scrollX={1000} />
      <UploadDialog
        open={uploading}
        title={t('systemMusic.uploadTitle')}
        hint={t('upload.audioHint')}
        onClose={() => setUploading(false)}
        uploader={uploader}
        accept={ACCEPT}
        maxSize={MAX_UPLOAD_MB}
        onUploaded={() => {
          setName('');
          uploaded();
        }}
        testId="system-music-upload"
      >
        <Form layout="vertical">
          <Form.Item label={t('systemMusic.trackName')} extra={t('systemMusic.trackNameHint')}>
            <Input value={name} onChange={(e) => setName(e.target.value)} maxLength={120} data-testid="system-music-name" />
          </Form.Item>
          <Form.Item label={t('columns.category')}>
            <Input value={category} onChange={(e) => setCategory(e.target.value)} maxLength={30} data-testid="system-music-category" />
          </Form.Item>
        </Form>
      </UploadDialog>
    </>
  );
}
