import { Button, Popconfirm, Space, Tag } from 'antd';
import type { TFunction } from 'i18next';
import type { StaffRow } from '@/api/auth/types';
import type { DataTableColumn } from '@/components/DataTable';
import { formatTime } from '@/utils/format';

export interface StaffActions {
  canEdit: boolean;
  canDelete: boolean;
  canAuthorize: boolean;
  onEdit: (row: StaffRow) => void;
  onAuthorize: (row: StaffRow) => void;
  onDelete: (row: StaffRow) => void;
  /** Shows the sign-in QR code of the member. */
  onShare: (row: StaffRow) => void;
}

export function staffColumns(t: TFunction, a: StaffActions): DataTableColumn<StaffRow>[] {
  return [
    { title: 'ID', dataIndex: 'id', width: 80, sorter: true },
    { title: t('staff.username'), dataIndex: 'username', sorter: true },
    { title: t('staff.nickname'), dataIndex: 'nickname' },
    { title: t('login.mobile'), dataIndex: 'mobile' },
    {
      title: t('common:status'),
      dataIndex: 'status',
      render: (status: number) =>
        status === 1 ? <Tag color="green">{t('common:enabled')}</Tag> : <Tag color="red">{t('common:disabled')}</Tag>,
    },
    { title: t('staff.menuCount'), dataIndex: 'menu_ids', render: (ids: unknown[]) => ids?.length ?? 0, hide: true },
    { title: t('staff.lastLogin'), dataIndex: 'last_login_at', render: formatTime, sorter: true },
    { title: t('common:createdAt'), dataIndex: 'created_at', render: formatTime, sorter: true },
    {
      title: t('common:actions'),
      key: 'actions',
      fixed: 'right',
      render: (_, row) => (
        <Space size={0} wrap>
          {a.canEdit ? (
            <Button type="link" size="small" onClick={() => a.onEdit(row)} data-testid={`staff-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
          ) : null}
          {a.canAuthorize ? (
            <Button type="link" size="small" onClick={() => a.onAuthorize(row)} data-testid={`staff-auth-${row.id}`}>
              {t('staff.authorize')}
            </Button>
          ) : null}
          <Button type="link" size="small" onClick={() => a.onShare(row)} data-testid={`staff-share-${row.id}`}>
            {t('staff.share')}
          </Button>
          {a.canDelete ? (
            <Popconfirm
              title={t('staff.deleteConfirm', { name: row.username })}
              onConfirm={() => a.onDelete(row)}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'staff-delete-ok' }}
            >
              <Button type="link" size="small" danger data-testid={`staff-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          ) : null}
        </Space>
      ),
    },
  ];
}
