/** The distribution plan a preview answers: counts, spread per account, first / last time, unplaced videos, warnings and the items. */
import { Alert, Descriptions, Space, Table } from 'antd';
import type { Plan, PlanItem } from '@/api/matrix/types';
import RiskTag from '@/components/RiskTag';
import TimeZoneNote from '@/components/TimeZoneNote';
import { formatTime } from '@/utils/format';
import { useMatrixT } from '../i18n';
import { PlatformTag } from '../shared/tags';

/** The server sends how many videos did not fit (a number). */
export function unplacedCount(plan: Plan): number {
  return plan.unplaced ?? 0;
}

export default function PlanView({ plan }: { plan: Plan }) {
  const { t } = useMatrixT();
  const unplaced = unplacedCount(plan);
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="plan-view">
      <Descriptions size="small" column={{ xs: 1, sm: 2, md: 3 }} bordered>
        <Descriptions.Item label={t('plan.count')}>
          <span data-testid="plan-count">{plan.count}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('plan.perAccount')}>
          <span data-testid="plan-per-account">
            {plan.per_account?.min ?? 0}–{plan.per_account?.max ?? 0}
          </span>
        </Descriptions.Item>
        <Descriptions.Item label={t('plan.unplaced')}>
          <span data-testid="plan-unplaced">{unplaced}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('plan.firstAt')}>{formatTime(plan.first_at)}</Descriptions.Item>
        <Descriptions.Item label={t('plan.lastAt')}>{formatTime(plan.last_at)}</Descriptions.Item>
      </Descriptions>
      <TimeZoneNote />
      {unplaced > 0 ? <Alert type="warning" showIcon title={t('plan.unplacedHelp', { count: unplaced })} /> : null}
      {(plan.warnings ?? []).map((w, i) => (
        <Alert key={i} type="warning" showIcon title={w} data-testid={`plan-warning-${i}`} />
      ))}
      <Table<PlanItem>
        size="small"
        rowKey={(r) => `${r.account_id}-${r.video_key}-${r.at}`}
        dataSource={plan.items ?? []}
        pagination={{ pageSize: 10, size: 'small', showSizeChanger: false }}
        data-testid="plan-table"
        columns={[
          {
            title: t('plan.account'),
            dataIndex: 'nickname',
            render: (n: string, r) => (
              <Space size={4}>
                <PlatformTag platform={r.platform} />
                {n}
              </Space>
            ),
          },
          { title: t('plan.video'), dataIndex: 'video_name', ellipsis: true },
          { title: t('plan.at'), dataIndex: 'at', width: 170, render: formatTime },
          { title: t('plan.title'), dataIndex: 'title', ellipsis: true },
          {
            title: t('plan.risk'),
            key: 'risk',
            width: 110,
            render: (_, r) => <RiskTag risk={r.risk?.score} reasons={r.risk ? [r.risk] : []} testId={`plan-risk-${r.account_id}-${r.video_key}`} />,
          },
        ]}
      />
    </Space>
  );
}
