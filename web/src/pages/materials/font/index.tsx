/**
 * /font — fonts: the name, a preview line drawn in the font itself (FontFace from the signed src),
 * upload (ttf / otf), rename, delete.
 */
import { UploadOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { deleteFont, materialsKeys, materialUrls, renameFont } from '@/api/materials';
import { useMarkStale } from '@/api/mutations';
import type { MediaFile } from '@/api/materials/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { formatTime } from '@/utils/format';
import { fontFilterFields } from '../filters';
import { useMaterialsT } from '../i18n';
import { formatSize } from '../shared/format';
import RenameDeleteActions from '../shared/RenameDeleteActions';
import NameModal, { type NameRequest } from '../shared/NameModal';
import UploadDialog from '../shared/UploadDialog';
import { mediaUploader } from '../shared/uploader';
import FontPreview from './FontPreview';
import '../shared/materials.css';

/** Fonts TTF / OTF up to 30 MB. */
const MAX_FONT_MB = 30;
const ACCEPT = '.ttf,.otf,font/ttf,font/otf';

export default function FontPage() {
  const { t } = useMaterialsT();
  const [sample, setSample] = useState('');
  const [uploading, setUploading] = useState(false);
  const [uploadName, setUploadName] = useState('');
  const [naming, setNaming] = useState<NameRequest | null>(null);
  const uploaded = useMarkStale(materialsKeys.all);
  const text = sample.trim() || t('font.sample');

  const columns = useMemo<DataTableColumn<MediaFile>[]>(
    () => [
      {
        title: t('columns.name'),
        dataIndex: 'name',
        sorter: true,
        width: 220,
        render: (name: string, row) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong data-testid={`font-name-${row.id}`}>
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
      { title: t('font.preview'), key: 'preview', render: (_, row) => <FontPreview id={row.id} src={row.src} text={text} /> },
      { title: t('columns.size'), dataIndex: 'size', width: 100, sorter: true, render: formatSize },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime, sorter: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 170,
        render: (_, row) => (
          <RenameDeleteActions prefix="font" row={row} askName={setNaming} rename={renameFont} remove={deleteFont} />
        ),
      },
    ],
    [t, text],
  );

  const filterFields = useMemo(() => fontFilterFields(t), [t]);
  const uploader = useMemo(
    () => mediaUploader({ action: materialUrls.uploadFont, data: uploadName.trim() ? { name: uploadName.trim() } : undefined }),
    [uploadName],
  );

  return (
    <>
      <PageHeader
        title={t('common:menu.font')}
        subTitle={t('font.subtitle')}
        extra={
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="font-upload">
            {t('upload.button')}
          </Button>
        }
      />
      <DataTable<MediaFile>
        id="font"
        queryKey={materialsKeys.all}
        api={materialUrls.fonts}
        exportApi={materialUrls.fontsExport}
        columns={columns}
        filterFields={filterFields}
        scrollX={900}
        toolbar={
          <Input
            allowClear
            value={sample}
            onChange={(e) => setSample(e.target.value)}
            placeholder={t('font.samplePlaceholder')}
            style={{ width: 320 }}
            maxLength={60}
            data-testid="font-sample"
          />
        }
      />
      <UploadDialog
        open={uploading}
        title={t('upload.fontTitle')}
        hint={t('upload.fontHint')}
        onClose={() => setUploading(false)}
        uploader={uploader}
        accept={ACCEPT}
        maxSize={MAX_FONT_MB}
        onUploaded={() => {
          setUploadName('');
          uploaded();
        }}
        testId="font-upload"
      >
        <Form layout="vertical">
          <Form.Item label={t('font.uploadName')} extra={t('font.uploadNameHint')}>
            <Input value={uploadName} onChange={(e) => setUploadName(e.target.value)} maxLength={120} data-testid="font-upload-name" />
          </Form.Item>
        </Form>
      </UploadDialog>
      <NameModal request={naming} onClose={() => setNaming(null)} />
    </>
  );
}
