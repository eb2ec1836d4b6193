/**
 * /speak — voice-over materials (SPEC §3: task id, original file name, duration seconds, status):
 * upload audio, listen, recognize subtitles (zh / en, points charged per started minute), edit them in
 * the timeline editor, rename, delete. States follow the progress stream.
 */
import { DownloadOutlined, FileTextOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Tag, Tooltip, Typography } from 'antd';
import { useCallback, useMemo, useRef, useState } from 'react';
import { deleteFiles, materialsKeys, materialUrls, renameMaterial } from '@/api/materials';
import { useMarkStale } from '@/api/mutations';
import type { MediaFile } from '@/api/materials/types';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { formatTime } from '@/utils/format';
import { voiceFilterFields } from '../filters';
import { useMaterialsT } from '../i18n';
import { formatSize, seconds } from '../shared/format';
import InlineAudio from '../shared/InlineAudio';
import { AsrStateTag, MediaStateTag } from '../shared/MediaStateTag';
import RenameDeleteActions from '../shared/RenameDeleteActions';
import NameModal, { type NameRequest } from '../shared/NameModal';
import RecognizeButton from '../shared/RecognizeButton';
import TimelineEditor, { type TimelineTarget } from '../shared/TimelineEditor';
import UploadDialog from '../shared/UploadDialog';
import { mediaUploader } from '../shared/uploader';
import { useLiveRows } from '../shared/useMediaProgress';

/** SPEC §5 / docs: audio up to 100 MB. */
const MAX_UPLOAD_MB = 100;
const ACCEPT = 'audio/*,.mp3,.m4a,.aac,.wav,.ogg,.flac';

export default function SpeakPage() {
  const { t } = useMaterialsT();
  const table = useRef<DataTableRef>(null);
  const [uploading, setUploading] = useState(false);
  const [timeline, setTimeline] = useState<TimelineTarget | null>(null);
  const [naming, setNaming] = useState<NameRequest | null>(null);
  // progress events and polling read the rows again; a write marks the area stale
  const refresh = useCallback(() => table.current?.refresh(), []);
  const { merge, onLoad, status } = useLiveRows<MediaFile>(refresh);
  const uploaded = useMarkStale(materialsKeys.all);

  const columns = useMemo<DataTableColumn<MediaFile>[]>(
    () => [
      { title: t('speak.taskId'), dataIndex: 'id', width: 90, sorter: true },
      {
        title: t('speak.fileName'),
        dataIndex: 'original_name',
        sorter: true,
        render: (original: string, row) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong data-testid={`voice-name-${row.id}`}>
              {row.name}
            </Typography.Text>
            {original && original !== row.name ? (
              <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                {original}
              </Typography.Text>
            ) : null}
          </Space>
        ),
      },
      { title: t('speak.durationSeconds'), dataIndex: 'duration_ms', width: 120, sorter: true, render: (ms: number) => seconds(ms) },
      {
        title: t('columns.state'),
        dataIndex: 'state',
        width: 200,
        render: (_, raw) => {
          const row = merge(raw);
          return (
            <Space orientation="vertical" size={4}>
              <MediaStateTag id={row.id} state={row.state} progress={row.progress} error={row.error} />
              <AsrStateTag id={row.id} state={row.asr_state} error={row.asr_error} />
            </Space>
          );
        },
      },
      { title: t('columns.preview'), key: 'preview', width: 260, render: (_, row) => <InlineAudio id={row.id} src={row.src} noDownload={Boolean(row.download)} /> },
      { title: t('columns.size'), dataIndex: 'size', width: 100, sorter: true, render: formatSize, hide: true },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime, sorter: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 260,
        render: (_, raw) => {
          const row = merge(raw);
          return (
            <RenameDeleteActions prefix="voice" row={row} askName={setNaming} rename={renameMaterial} remove={(id) => deleteFiles([id])}>
              <RecognizeButton id={row.id} durationMs={row.duration_ms} disabled={row.asr_state === 'processing' || !row.has_audio} />
              <Button
                type="link"
                size="small"
                icon={<FileTextOutlined />}
                onClick={() => setTimeline({ id: row.id, name: row.name, kind: 'audio', duration_ms: row.duration_ms })}
                data-testid={`voice-subtitles-${row.id}`}
              >
                {t('actions.subtitles')}
              </Button>
              {row.download ? (
                <Tooltip title={t('actions.downloadHelp')}>
                  <Button type="link" size="small" icon={<DownloadOutlined />} href={row.download} data-testid={`voice-download-${row.id}`}>
                    {t('actions.download')}
                  </Button>
                </Tooltip>
              ) : null}
            </RenameDeleteActions>
          );
        },
      },
    ],
    [t, merge],
  );

  const filterFields = useMemo(() => voiceFilterFields(t), [t]);
  const uploader = useMemo(() => mediaUploader({ action: materialUrls.uploadVoice, data: { type: 'voice' }, library: 'voice' }), []);

  return (
    <>
      <PageHeader
        title={t('common:menu.speak')}
        subTitle={t('speak.subtitle')}
        extra={
          <Button type="primary" icon={<UploadOutlined />} onClick={() => setUploading(true)} data-testid="speak-upload">
            {t('upload.button')}
          </Button>
        }
      />
      <DataTable<MediaFile>
        id="speak"
        ref={table}
        queryKey={materialsKeys.all}
        api={materialUrls.voices}
        exportApi={materialUrls.voicesExport}
        columns={columns}
        filterFields={filterFields}
        onLoad={onLoad}
        scrollX={1300}
        toolbar={
          status === 'down' ? (
            <Tag color="warning" data-testid="speak-stream-down">
              {t('stream.polling')}
            </Tag>
          ) : null
        }
      />
      <UploadDialog
        open={uploading}
        title={t('upload.voiceTitle')}
        hint={t('upload.audioHint')}
        onClose={() => setUploading(false)}
        uploader={uploader}
        accept={ACCEPT}
        maxSize={MAX_UPLOAD_MB}
        onUploaded={uploaded}
        testId="speak-upload"
      />
      <TimelineEditor target={timeline} onClose={() => setTimeline(null)} />
      <NameModal request={naming} onClose={() => setNaming(null)} />
    </>
  );
}
