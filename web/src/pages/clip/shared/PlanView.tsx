/**
 * A mix plan (docs/api-clip.md `Plan`): the unique sequences with their clip names, how evenly the
 * clips are used (max / min use, spread), the capacity before and after, and the points it costs.
 */
import { Descriptions, Table, Tag, Typography } from 'antd';
import type { Plan, PlanClip } from '@/api/clip/types';
import { formatCount } from '../format';
import { useClipT } from '../i18n';

export default function PlanView({ plan, testId = 'plan' }: { plan: Plan; testId?: string }) {
  const { t } = useClipT();
  const rows = plan.sequences.map((clips, index) => ({ index, clips }));
  return (
    <div data-testid={testId}>
      <Descriptions
        size="small"
        column={{ xs: 1, sm: 2, md: 3 }}
        bordered
        items={[
          { key: 'count', label: t('plan.count'), children: <span data-testid={`${testId}-count`}>{plan.sequences.length}</span> },
          { key: 'points', label: t('plan.points'), children: <Typography.Text strong data-testid={`${testId}-points`}>{plan.points}</Typography.Text> },
          {
            key: 'capacity',
            label: t('plan.capacity'),
            children: (
              <span data-testid={`${testId}-capacity`}>
                {formatCount(plan.capacity_before)} → {formatCount(plan.capacity_after)}
              </span>
            ),
          },
          { key: 'max', label: t('plan.maxUse'), children: <span data-testid={`${testId}-max-use`}>{plan.max_use}</span> },
          { key: 'min', label: t('plan.minUse'), children: <span data-testid={`${testId}-min-use`}>{plan.min_use}</span> },
          {
            key: 'balance',
            label: t('plan.spread'),
            children: (
              <span data-testid={`${testId}-spread`}>
                {plan.max_spread}{' '}
                <Tag color={plan.balanced ? 'success' : 'warning'} data-testid={`${testId}-balanced`}>
                  {plan.balanced ? t('plan.balanced') : t('plan.unbalanced')}
                </Tag>
              </span>
            ),
          },
        ]}
      />
      <Table<{ index: number; clips: PlanClip[] }>
        style={{ marginTop: 12 }}
        size="small"
        rowKey="index"
        dataSource={rows}
        pagination={rows.length > 20 ? { pageSize: 20, size: 'small', showSizeChanger: false } : false}
        onRow={(row) => ({ 'data-testid': `${testId}-seq-${row.index}` }) as React.HTMLAttributes<HTMLElement>}
        columns={[
          { title: '#', key: 'index', width: 60, render: (_, row) => row.index + 1 },
          {
            title: t('plan.sequence'),
            key: 'clips',
            render: (_, row) => (
              <span className="cm-plan-seq">
                {row.clips.map((clip, i) => (
                  <span key={`${clip.id}-${i}`}>
                    {i ? <span className="cm-plan-arrow">→</span> : null}
                    <Tag title={`#${clip.id}`}>{clip.name || `#${clip.id}`}</Tag>
                  </span>
                ))}
              </span>
            ),
          },
        ]}
      />
    </div>
  );
}
