/** "Preview plan": what generating N would make, nothing rendered and nothing charged. */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, InputNumber, Space, Spin } from 'antd';
import { useEffect, useState } from 'react';
import { previewPlan } from '@/api/clip';
import type { Project } from '@/api/clip/types';
import { FullscreenModal } from '@/components/ModalForm';
import { useClipT } from '../i18n';
import { maxBatch } from '../rules';
import PlanView from '../shared/PlanView';

export interface PlanModalProps {
  project: Project | null;
  onClose: () => void;
  /** Opens the generate dialog with this count. */
  onGenerate: (project: Project, count: number) => void;
}

export default function PlanModal({ project, onClose, onGenerate }: PlanModalProps) {
  const { t } = useClipT();
  const [count, setCount] = useState<number | null>(null);
  const [asked, setAsked] = useState<number | null>(null);
  const limit = project ? maxBatch(project.capacity) : 0;

  useEffect(() => {
    if (!project) return;
    const first = Math.max(1, Math.min(project.config.output_count || 1, limit || 1));
    setCount(first);
    setAsked(first);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [project?.id]);

  const plan = useQuery({
    queryKey: ['clip', 'plan', project?.id, asked],
    queryFn: () => previewPlan(project!.id, asked!),
    enabled: Boolean(project && asked),
    retry: false,
    staleTime: 0,
    gcTime: 0,
  });

  return (
    <FullscreenModal
      open={project !== null}
      title={t('plan.title', { name: project?.name ?? '' })}
      onCancel={onClose}
      width={900}
      testId="plan-dialog"
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={onClose}>{t('common:cancel')}</Button>
          <Button
            type="primary"
            disabled={!plan.data || !project?.status}
            onClick={() => project && asked && onGenerate(project, asked)}
            data-testid="plan-generate"
          >
            {t('plan.generate', { count: asked ?? 0 })}
          </Button>
        </Space>
      }
    >
      <Space style={{ marginBottom: 12 }}>
        <span>{t('generate.count')}</span>
        <InputNumber<number> min={1} max={limit || 1} precision={0} value={count} onChange={setCount} data-testid="plan-count" />
        <Button onClick={() => setAsked(count)} disabled={!count} data-testid="plan-refresh">
          {t('plan.refresh')}
        </Button>
      </Space>
      {plan.isError ? <Alert type="error" showIcon title={(plan.error as Error).message} data-testid="plan-error" /> : null}
      {plan.isFetching && !plan.data ? <Spin /> : null}
      {plan.data ? <PlanView plan={plan.data} /> : null}
    </FullscreenModal>
  );
}
