/**
 * "Import videos": pick some of the merchant's processed videos (ready video materials, e.g. finished
 * videos uploaded to the video library) and put them into the finished-video library
 * (`/clip.merchant_video_library/add`). They show there as "Imported". The server's refusal (422: already
 * in the library, not processed) is shown in the dialog.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Input, Table, Typography } from 'antd';
import { useEffect, useMemo, useState, type Key } from 'react';
import { clipKeys, fetchReadyVideos, importVideos } from '@/api/clip';
import { useWrite } from '@/api/mutations';
import type { PickMedia } from '@/api/clip/types';
import { FullscreenModal } from '@/components/ModalForm';
import { formatDuration } from '../format';
import { useClipT } from '../i18n';

export interface ImportDialogProps {
  open: boolean;
  onClose: () => void;
  /** The new variants' ids. */
  onDone: (variantIds: number[]) => void;
}

export default function ImportDialog({ open, onClose, onDone }: ImportDialogProps) {
  const { t } = useClipT();
  const [selected, setSelected] = useState<Key[]>([]);
  const [search, setSearch] = useState('');
  const [error, setError] = useState<string | null>(null);
  // the imported videos become variants of the library
  const importing = useWrite(importVideos, clipKeys.all);
  // read again on every open: enabling a stale query (staleTime 0) reads it
  const videos = useQuery({ queryKey: ['clip', 'readyVideos'], queryFn: () => fetchReadyVideos(), enabled: open, staleTime: 0 });

  useEffect(() => {
    if (!open) return;
    setSelected([]);
    setSearch('');
    setError(null);
  }, [open]);

  const rows = useMemo(() => {
    // the list call filters already; a server without the filters still must not offer other files
    const all = (videos.data?.rows ?? []).filter((m) => (!m.kind || m.kind === 'video') && (!m.state || m.state === 'ready'));
    const needle = search.trim().toLowerCase();
    return needle ? all.filter((m) => m.name.toLowerCase().includes(needle)) : all;
  }, [videos.data, search]);

  const toggle = (id: number) => setSelected((keys) => (keys.includes(id) ? keys.filter((k) => k !== id) : [...keys, id]));

  const run = async () => {
    if (!selected.length) return;
    setError(null);
    try {
      const res = await importing.mutateAsync(selected.map(Number));
      onDone(res.variant_ids ?? []);
    } catch (e) {
      setError(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <FullscreenModal
      open={open}
      title={t('library.importTitle')}
      onCancel={onClose}
      onOk={run}
      okText={t('library.importOk', { count: selected.length })}
      cancelText={t('common:cancel')}
      confirmLoading={importing.isPending}
      okButtonProps={{ disabled: !selected.length, 'data-testid': 'library-import-ok' } as never}
      width={640}
      testId="library-import-dialog"
      destroyOnHidden
    >
      <Typography.Paragraph type="secondary">{t('library.importHelp')}</Typography.Paragraph>
      <Input.Search
        allowClear
        placeholder={t('library.importSearch')}
        onChange={(e) => setSearch(e.target.value)}
        onSearch={setSearch}
        style={{ marginBottom: 8 }}
        data-testid="library-import-search"
      />
      {error ? <Alert type="error" showIcon title={error} style={{ marginBottom: 8 }} data-testid="library-import-error" /> : null}
      <div className="cm-import-list">
        <Table<PickMedia>
          size="small"
          rowKey="id"
          loading={videos.isFetching}
          dataSource={rows}
          pagination={false}
          locale={{ emptyText: t('library.importNone') }}
          rowSelection={{
            selectedRowKeys: selected,
            onChange: (keys) => {
              setSelected(keys);
              setError(null);
            },
            getCheckboxProps: (row) => ({ 'data-testid': `import-video-check-${row.id}` }) as never,
          }}
          onRow={(row) => ({
            onClick: (e: React.MouseEvent) => {
              // the checkbox cell toggles through rowSelection itself
              if ((e.target as HTMLElement).closest('.ant-table-selection-column')) return;
              toggle(row.id);
              setError(null);
            },
            className: 'cm-clickable',
            'data-testid': `import-video-${row.id}`,
          }) as never}
          columns={[
            {
              key: 'poster',
              width: 60,
              render: (_, row) =>
                row.poster ? (
                  <img src={row.poster} alt={row.name} className="cm-variant-cover" style={{ width: 36, height: 64 }} />
                ) : (
                  <div className="cm-variant-cover cm-variant-cover-empty" style={{ width: 36, height: 64 }} />
                ),
            },
            { title: t('library.videoName'), dataIndex: 'name', ellipsis: true },
            { title: t('columns.duration'), dataIndex: 'duration_ms', width: 90, render: (ms: number | null) => formatDuration(ms) },
          ]}
          data-testid="library-import-list"
        />
      </div>
    </FullscreenModal>
  );
}
