import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { UsageRecord } from '@/api/auth/types';
import type { DataTableColumn } from '@/components/DataTable';
import { formatTime } from '@/utils/format';

const KIND_COLOR: Record<UsageRecord['kind'], string> = { topup: 'green', deduct: 'orange', refund: 'blue' };

export function usageColumns(t: TFunction): DataTableColumn<UsageRecord>[] {
  return [
    { title: t('useRecord.time'), dataIndex: 'created_at', render: formatTime, sorter: true, width: 180 },
    {
      title: t('useRecord.kind'),
      dataIndex: 'kind',
      render: (kind: UsageRecord['kind']) => <Tag color={KIND_COLOR[kind]}>{t(`useRecord.kinds.${kind}`)}</Tag>,
    },
    {
      title: t('useRecord.change'),
      dataIndex: 'change',
      sorter: true,
      render: (v: number) => <Typography.Text type={v < 0 ? 'danger' : 'success'}>{v > 0 ? `+${v}` : v}</Typography.Text>,
    },
    { title: t('useRecord.balance'), dataIndex: 'balance' },
    { title: t('useRecord.reason'), dataIndex: 'reason', ellipsis: true },
    { title: t('useRecord.jobKey'), dataIndex: 'job_key', hide: true },
    { title: t('useRecord.operator'), dataIndex: 'operator' },
  ];
}
