/**
 * "Generate N" / "Continue adding" / "Render all remaining": asks how many unique variants (all: every
 * one the project still allows, at most 200 — not editable), previews the plan to show what it
 * costs (2 points each) and the capacity it leaves, and on confirmation queues the renders. The
 * server's message (422: over capacity, a group without ready clips, not enough points) is shown in
 * the dialog.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Form, InputNumber, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { clipKeys, continueAdding, generateVariants, previewPlan, renderAllRemaining } from '@/api/clip';
import { useWrite } from '@/api/mutations';
import { RequestError } from '@/api/request';
import type { Plan } from '@/api/clip/types';
import { FullscreenModal } from '@/components/ModalForm';
import { formatCount } from '../format';
import { useClipT } from '../i18n';
import { MAX_BATCH, maxBatch, POINTS_PER_VARIANT } from '../rules';

export interface GenerateTarget {
  id: number;
  name: string;
  /** Default count. */
  output_count: number;
  /** Unique variants still possible (when known). */
  capacity?: number;
  /** Unique combinations shorter than the voice-over: never made, as they would cut it off. */
  short?: number;
  /** The voice-over's length, ms. */
  voice_ms?: number;
}

/** generate = add_video, continue = continue_add_video, all = job_video_add_all (capacity, at most 200). */
export type GenerateMode = 'generate' | 'continue' | 'all';

export interface GenerateDialogProps {
  target: GenerateTarget | null;
  mode: GenerateMode;
  onClose: () => void;
  onDone: (plan: Plan, target: GenerateTarget) => void;
}

const messageOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export default function GenerateDialog({ target, mode, onClose, onDone }: GenerateDialogProps) {
  const { t } = useClipT();
  const [count, setCount] = useState<number | null>(null);
  const [debounced, setDebounced] = useState<number | null>(null);
  const [error, setError] = useState<string | null>(null);
  // the variants queued mark the area stale: the projects' counts and the library read again
  const write = useWrite(
    ({ id, count: n }: { id: number; count: number }) => (mode === 'all' ? renderAllRemaining(id) : mode === 'continue' ? continueAdding(id, n) : generateVariants(id, n)),
    clipKeys.all,
  );
  const limit = target?.capacity !== undefined ? maxBatch(target.capacity) : MAX_BATCH;
  const all = mode === 'all';

  useEffect(() => {
    if (!target) {
      setCount(null);
      setDebounced(null);
      return;
    }
    const first = all ? limit || null : Math.max(1, Math.min(target.output_count || 1, limit || 1));
    setCount(first);
    setDebounced(first);
    setError(null);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [target?.id, target?.output_count, all]);

  useEffect(() => {
    const timer = setTimeout(() => setDebounced(count), 300);
    return () => clearTimeout(timer);
  }, [count]);

  const preview = useQuery({
    queryKey: ['clip', 'preview', target?.id, debounced],
    queryFn: () => previewPlan(target!.id, debounced!),
    enabled: Boolean(target) && Boolean(debounced),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

  const points = preview.data?.points ?? (count ?? 0) * POINTS_PER_VARIANT;
  const previewError = preview.isError ? messageOf(preview.error) : null;

  const run = async () => {
    if (!target || !count) return;
    setError(null);
    try {
      const plan = await write.mutateAsync({ id: target.id, count });
      onDone(plan, target);
    } catch (e) {
      // 422 and the rest: the server's own words, in the dialog
      setError(e instanceof RequestError || e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <FullscreenModal
      open={target !== null}
      title={t(all ? 'generate.allTitle' : mode === 'continue' ? 'generate.continueTitle' : 'generate.title', { name: target?.name ?? '' })}
      onCancel={onClose}
      onOk={run}
      okText={t('generate.ok', { count: count ?? 0, points })}
      cancelText={t('common:cancel')}
      confirmLoading={write.isPending}
      okButtonProps={{ disabled: !count || preview.isFetching || Boolean(previewError), 'data-testid': 'generate-ok' } as never}
      width={520}
      testId="generate-dialog"
      destroyOnHidden
    >
      <Form layout="vertical">
        <Form.Item
          label={t('generate.count')}
          extra={
            all
              ? t('generate.allHelp', { max: MAX_BATCH })
              : target?.capacity !== undefined
                ? t('generate.capacity', { count: target.capacity, value: formatCount(target.capacity) })
                : undefined
          }
        >
          <InputNumber<number>
            min={1}
            max={limit || 1}
            precision={0}
            disabled={all}
            value={count}
            onChange={(v) => {
              setCount(v);
              setError(null);
            }}
            style={{ width: 160 }}
            data-testid="generate-count"
          />
        </Form.Item>
      </Form>
      <Space orientation="vertical" style={{ width: '100%' }}>
        {target?.short ? (
          <Alert
            type="warning"
            showIcon
            data-testid="generate-short"
            title={t('generate.short', { count: target.short, value: formatCount(target.short), voice: ((target.voice_ms ?? 0) / 1000).toFixed(1) })}
          />
        ) : null}
        {previewError ? (
          <Alert type="error" showIcon title={previewError} data-testid="generate-error" />
        ) : (
          <Alert
            type="info"
            showIcon
            data-testid="generate-points"
            data-points={points}
            title={t('generate.confirm', { count: count ?? 0, points })}
            description={
              preview.data ? (
                <Typography.Text type="secondary">
                  {t('generate.after', { value: formatCount(preview.data.capacity_after), max: preview.data.max_use, min: preview.data.min_use })}
                </Typography.Text>
              ) : undefined
            }
          />
        )}
        {preview.data?.lacking?.length ? (
          // Some two variants would share most of their shots: a duplicate check sees them as one video.
          <Alert
            type="warning"
            showIcon
            data-testid="generate-alike"
            title={t('generate.alike', { shared: preview.data.max_shared, slots: preview.data.slots })}
            description={preview.data.lacking.map((l) => t('generate.addClips', { name: l.name, count: l.clips })).join(t('generate.listSep'))}
          />
        ) : null}
        {error ? <Alert type="error" showIcon title={error} data-testid="generate-failed" /> : null}
      </Space>
    </FullscreenModal>
  );
}
