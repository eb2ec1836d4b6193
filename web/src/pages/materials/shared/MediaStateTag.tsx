import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import type { AsrState, MediaState } from '@/api/materials/types';
import { useMaterialsT } from '../i18n';

/** Processing (with its progress bar), ready, or failed with the reason. */
export function MediaStateTag({ id, state, progress, error }: { id: number; state: MediaState; progress: number; error?: string }) {
  const { t } = useMaterialsT();
  const testId = `state-${id}`;
  if (state === 'processing')
    return (
      <div data-testid={testId} data-state="processing" data-progress={progress} style={{ minWidth: 120 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('state.processing')}
        </Typography.Text>
        <Progress percent={Math.max(0, Math.min(100, Math.round(progress ?? 0)))} size="small" status="active" style={{ margin: 0 }} />
      </div>
    );
  if (state === 'failed')
    return (
      <Space orientation="vertical" size={0} data-testid={testId} data-state="failed">
        <Tag color="error">{t('state.failed')}</Tag>
        {error ? (
          <Tooltip title={error}>
            <Typography.Text type="danger" ellipsis style={{ maxWidth: 220, fontSize: 12 }} data-testid={`${testId}-error`}>
              {error}
            </Typography.Text>
          </Tooltip>
        ) : null}
      </Space>
    );
  return (
    <Tag color="success" data-testid={testId} data-state="ready">
      {t('state.ready')}
    </Tag>
  );
}

const ASR_COLOR: Record<Exclude<AsrState, ''>, string> = { processing: 'processing', success: 'success', failed: 'error' };

/** Subtitle recognition: none yet, in progress, successful, failed (reason on hover). */
export function AsrStateTag({ id, state, error }: { id: number; state: AsrState; error?: string }) {
  const { t } = useMaterialsT();
  const tag = (
    <Tag color={state ? ASR_COLOR[state] : 'default'} data-testid={`asr-state-${id}`} data-state={state || 'none'}>
      {t(`asr.states.${state || 'none'}`)}
    </Tag>
  );
  return state === 'failed' && error ? <Tooltip title={error}>{tag}</Tooltip> : tag;
}
