import { Button, Dropdown, Space, Switch, Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { MerchantRow } from '@/api/system/types';
import type { DataTableColumn } from '@/components/DataTable';
import { formatDate, formatTime } from '@/utils/format';

export interface MerchantActions {
  onEdit: (row: MerchantRow) => void;
  onStatus: (row: MerchantRow, enabled: boolean) => void;
  onResetPassword: (row: MerchantRow) => void;
  onTopup: (row: MerchantRow) => void;
  onEnter: (row: MerchantRow) => void;
  onBannedWords: (row: MerchantRow) => void;
}

export function merchantColumns(t: TFunction, a: MerchantActions): DataTableColumn<MerchantRow>[] {
  return [
    { title: 'ID', dataIndex: 'id', width: 70, sorter: true },
    { title: t('merchant.name'), dataIndex: 'name', sorter: true },
    { title: t('merchant.username'), dataIndex: 'username' },
    { title: t('merchant.mobile'), dataIndex: 'mobile' },
    {
      title: t('common:status'),
      dataIndex: 'status',
      render: (status: number, row) => (
        <Switch
          size="small"
          checked={status === 1}
          onChange={(on) => a.onStatus(row, on)}
          data-testid={`merchant-status-${row.id}`}
          checkedChildren={t('common:enabled')}
          unCheckedChildren={t('common:disabled')}
        />
      ),
    },
    { title: t('merchant.points'), dataIndex: 'points', sorter: true },
    {
      title: t('merchant.vip'),
      dataIndex: 'vip_expires_at',
      render: (ms: number | null) =>
        ms && ms > Date.now() ? <Tag color="gold">{formatDate(ms)}</Tag> : <Tag>{t('merchant.noVip')}</Tag>,
    },
    { title: t('merchant.staffCount'), dataIndex: 'staff_count' },
    { title: t('common:createdAt'), dataIndex: 'created_at', render: formatTime, sorter: true },
    {
      title: t('common:actions'),
      key: 'actions',
      fixed: 'right',
      // three buttons in either language ("Enter console", "Top up points", "More")
      width: 290,
      render: (_, row) => (
        <Space size={0}>
          <Button type="link" size="small" onClick={() => a.onEnter(row)} data-testid={`merchant-enter-${row.id}`}>
            {t('merchant.enter')}
          </Button>
          <Button type="link" size="small" onClick={() => a.onTopup(row)} data-testid={`merchant-topup-${row.id}`}>
            {t('merchant.topup')}
          </Button>
          <Dropdown
            menu={{
              items: [
                { key: 'edit', label: t('common:edit') },
                { key: 'password', label: t('merchant.resetPassword') },
                { key: 'banned', label: t('merchant.bannedWords') },
              ],
              onClick: ({ key }) => (key === 'edit' ? a.onEdit(row) : key === 'banned' ? a.onBannedWords(row) : a.onResetPassword(row)),
            }}
          >
            <Button type="link" size="small">
              {t('common:more')}
            </Button>
          </Dropdown>
        </Space>
      ),
    },
  ];
}
