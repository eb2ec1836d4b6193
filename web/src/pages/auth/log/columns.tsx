import { Tag, Typography } from 'antd';
import type { TFunction } from 'i18next';
import type { OperationLog } from '@/api/auth/types';
import type { DataTableColumn } from '@/components/DataTable';
import { formatTime } from '@/utils/format';

/** Operation log columns; shared by /log and the operator's /system/log. */
export function logColumns(t: TFunction, withMerchant = false): DataTableColumn<OperationLog>[] {
  return [
    { title: t('log.time'), dataIndex: 'created_at', render: formatTime, sorter: true, width: 180 },
    ...(withMerchant ? [{ title: t('log.merchant'), dataIndex: 'merchant_name' } as DataTableColumn<OperationLog>] : []),
    { title: t('log.username'), dataIndex: 'username', sorter: true },
    { title: t('log.action'), dataIndex: 'action_name', render: (name: string | undefined, row: OperationLog) => name || row.action },
    {
      title: t('log.result'),
      dataIndex: 'result',
      render: (result: OperationLog['result']) =>
        result === 'success' ? <Tag color="green">{t('log.success')}</Tag> : <Tag color="red">{t('log.failed')}</Tag>,
    },
    { title: t('log.method'), dataIndex: 'method', width: 90 },
    { title: t('log.path'), dataIndex: 'path', render: (p: string) => <Typography.Text code>{p}</Typography.Text> },
    { title: t('log.status'), dataIndex: 'status', width: 90 },
    { title: t('log.message'), dataIndex: 'message', ellipsis: { showTitle: true } },
    { title: 'IP', dataIndex: 'ip', hide: true },
  ];
}
