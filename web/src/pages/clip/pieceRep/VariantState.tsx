/**
 * SPEC §4 "Synthesis: in progress, success, failed with a reason; items used or unused".
 */
import { Progress, Space, Tag, Tooltip, Typography } from 'antd';
import type { Variant } from '@/api/clip/types';
import { useClipT } from '../i18n';

/** Imported from the video library (no project): project_id 0, project_name null. */
export function isImported(row: Pick<Variant, 'project_id' | 'project_name'>): boolean {
  return row.project_id === 0 || row.project_name === null;
}

export function VariantState({ row }: { row: Pick<Variant, 'id' | 'state' | 'progress' | 'error'> }) {
  const { t } = useClipT();
  const common = { 'data-testid': `variant-state-${row.id}`, 'data-state': row.state };
  if (row.state === 'processing') {
    const percent = Math.max(0, Math.min(100, Math.round(row.progress ?? 0)));
    return (
      <div {...common} data-progress={percent} style={{ minWidth: 140 }}>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('state.processing')}
        </Typography.Text>
        <Progress percent={percent} size="small" status="active" />
      </div>
    );
  }
  if (row.state === 'failed') {
    return (
      <Space orientation="vertical" size={0} {...common}>
        <Tag color="error">{t('state.failed')}</Tag>
        {row.error ? (
          <Tooltip title={row.error}>
            <Typography.Text type="danger" ellipsis style={{ maxWidth: 200, fontSize: 12 }} data-testid={`variant-error-${row.id}`}>
              {t('state.reason', { reason: row.error })}
            </Typography.Text>
          </Tooltip>
        ) : null}
      </Space>
    );
  }
  return (
    <Tag color="success" {...common}>
      {t('state.success')}
    </Tag>
  );
}

export function UsedTag({ row }: { row: Pick<Variant, 'id' | 'used' | 'state'> }) {
  const { t } = useClipT();
  if (row.state !== 'success') return null;
  return row.used ? (
    <Tag color="purple" data-testid={`variant-used-${row.id}`} data-used="1">
      {t('used.yes')}
    </Tag>
  ) : (
    <Tag data-testid={`variant-used-${row.id}`} data-used="0">
      {t('used.no')}
    </Tag>
  );
}
