/** Step 2 of a release task: finished-library variants and uploaded videos (forward_video), with covers and a used marker. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Checkbox, Empty, Input, Segmented, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { fetchVideos } from '@/api/matrix';
import type { ForwardVideo, VideoSource } from '@/api/matrix/types';
import AiPartsTag from '@/components/AiPartsTag';
import RiskTag from '@/components/RiskTag';
import { formatDuration } from '../format';
import { useMatrixT } from '../i18n';
import { splitVideoKeys, videoKey } from '../rules';

export const isUsed = (v: ForwardVideo) => Boolean(v.used);

export interface VideoPickerProps {
  value?: string[];
  onChange?: (keys: string[]) => void;
  /** The videos listed, by key, with whether the product generated any part of them (the declaration preview reads it). */
  onSeen?: (generated: Record<string, boolean>) => void;
}

export default function VideoPicker({ value = [], onChange, onSeen }: VideoPickerProps) {
  const { t } = useMatrixT();
  const [source, setSource] = useState<VideoSource>('library');
  const [name, setName] = useState('');
  const videos = useQuery({
    queryKey: ['matrix', 'videos', source, name],
    queryFn: () => fetchVideos(name ? { source, filterObj: { name: `${name}|include` } } : { source }),
  });
  const chosen = new Set(value);
  const rows = videos.data?.rows ?? [];
  const free = rows.filter((v) => !isUsed(v));
  const counts = splitVideoKeys(value);
  useEffect(() => {
    if (!onSeen || !videos.data) return;
    onSeen(Object.fromEntries(videos.data.rows.map((v) => [videoKey(v.source, v.id), (v.ai_parts ?? []).length > 0])));
  }, [videos.data, onSeen]);
  const toggle = (key: string, on: boolean) => {
    const next = new Set(value);
    if (on) next.add(key);
    else next.delete(key);
    onChange?.([...next]);
  };

  return (
    <div data-testid="video-picker">
      <Space wrap style={{ marginBottom: 8 }}>
        <Segmented<VideoSource>
          value={source}
          onChange={setSource}
          options={[
            { value: 'library', label: t('form.sourceLibrary') },
            { value: 'material', label: t('form.sourceMaterial') },
          ]}
          data-testid="video-source"
        />
        <Input.Search allowClear placeholder={t('form.videoSearch')} onSearch={(v) => setName(v.trim())} style={{ width: 200 }} data-testid="video-search" />
        <Button size="small" onClick={() => onChange?.([...new Set([...value, ...free.map((v) => videoKey(v.source, v.id))])])} disabled={!free.length} data-testid="videos-all">
          {t('form.selectAllShown', { count: free.length })}
        </Button>
        <Button size="small" onClick={() => onChange?.([])} disabled={!value.length} data-testid="videos-none">
          {t('form.clearSelection')}
        </Button>
        <Typography.Text type="secondary" data-testid="videos-chosen">
          {t('form.videosChosen', { count: value.length, library: counts.video_ids.length, material: counts.material_ids.length })}
        </Typography.Text>
      </Space>
      {videos.isLoading ? (
        <Spin />
      ) : videos.isError ? (
        // A failed load is not "no videos": say what went wrong.
        <Alert type="error" showIcon title={t('form.videosFailed', { error: videos.error instanceof Error ? videos.error.message : String(videos.error) })} data-testid="video-picker-error" />
      ) : rows.length ? (
        <div className="cm-video-grid">
          {rows.map((v) => {
            const key = videoKey(v.source, v.id);
            const used = isUsed(v);
            const on = chosen.has(key);
            const card = (
              <div
                key={key}
                className={`cm-video-card${on ? ' cm-video-card-selected' : ''}${used && !on ? ' cm-video-card-disabled' : ''}`}
                onClick={() => (!used || on) && toggle(key, !on)}
                data-testid={`video-card-${key}`}
                data-selected={on ? 'true' : 'false'}
              >
                {v.cover ? <img src={v.cover} alt={v.name} loading="lazy" /> : <div className="cm-video-card-empty" />}
                <Checkbox className="cm-video-card-check" checked={on} disabled={used && !on} />
                {used ? (
                  <Tag color="orange" className="cm-video-card-used" data-testid={`video-used-${key}`}>
                    {t('form.used')}
                  </Tag>
                ) : null}
                <AiPartsTag parts={v.ai_parts} className="cm-video-card-ai" testId={`video-ai-${key}`} />
                {v.risk != null ? (
                  <span className="cm-video-card-risk">
                    <RiskTag risk={v.risk} reasons={v.risk_reasons} testId={`video-risk-${key}`} />
                  </span>
                ) : null}
                <div className="cm-video-card-name" title={v.name}>
                  {v.name} {v.duration_ms ? <Typography.Text type="secondary">· {formatDuration(v.duration_ms)}</Typography.Text> : null}
                </div>
              </div>
            );
            return used && !on ? (
              <Tooltip key={key} title={t('form.usedHelp')}>
                {card}
              </Tooltip>
            ) : (
              card
            );
          })}
        </div>
      ) : (
        <Empty description={name ? t('form.noVideoMatch', { name }) : source === 'library' ? t('form.noLibraryVideos') : t('form.noMaterialVideos')} data-testid="video-picker-empty" />
      )}
    </div>
  );
}
