import { PlusOutlined } from '@ant-design/icons';
import { Button, Input, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '@/access/AccessContext';
import { authKeys, authUrls, deleteStaff } from '@/api/auth';
import { useWrite } from '@/api/mutations';
import type { StaffRow } from '@/api/auth/types';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { staffColumns } from './columns';
import { staffFilterFields } from './filters';
import MenuAuthModal from './MenuAuthModal';
import ShareSignInModal from './ShareSignInModal';
import StaffFormModal from './StaffFormModal';

export default function StaffAccountPage() {
  const { t } = useTranslation('auth');
  const access = useAccess();
  const remove = useWrite(deleteStaff, authKeys.all);
  const [username, setUsername] = useState('');
  const [editing, setEditing] = useState<{ row: StaffRow | null } | null>(null);
  const [authorizing, setAuthorizing] = useState<StaffRow | null>(null);
  const [sharing, setSharing] = useState<StaffRow | null>(null);

  const can = {
    add: access.can('user/merchant_user_sub/add'),
    edit: access.can('user/merchant_user_sub/edit'),
    remove: access.can('user/merchant_user_sub/delete'),
    authorize: access.can('user/merchant_user_sub/authMenu'),
  };

  const filterFields = useMemo(() => staffFilterFields(t), [t]);
  const columns = useMemo(
    () =>
      staffColumns(t, {
        canEdit: can.edit,
        canDelete: can.remove,
        canAuthorize: can.authorize,
        onEdit: (row) => setEditing({ row }),
        onAuthorize: setAuthorizing,
        onShare: setSharing,
        onDelete: async (row) => {
          try {
            await remove.mutateAsync(row.id);
            feedback.success(t('staff.deleted'));
          } catch {
            /* toasted by the request wrapper */
          }
        },
      }),
    [t, can.edit, can.remove, can.authorize],
  );

  return (
    <>
      <PageHeader
        title={t('common:menu.staffAccount')}
        subTitle={t('staff.subtitle')}
        extra={
          can.add ? (
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: null })} data-testid="staff-add">
              {t('staff.add')}
            </Button>
          ) : null
        }
      />
      <DataTable<StaffRow>
        id="staff"
        queryKey={authKeys.all}
        api={authUrls.staffList}
        params={username ? { username } : undefined}
        columns={columns}
        filterFields={filterFields}
        toolbar={
          <Space>
            <Input.Search
              allowClear
              placeholder={t('staff.searchUsername')}
              onSearch={(v) => setUsername(v.trim())}
              style={{ width: 240 }}
              data-testid="staff-search"
            />
          </Space>
        }
      />
      <StaffFormModal
        open={editing !== null}
        row={editing?.row ?? null}
        onClose={() => setEditing(null)}
        onSaved={(row, created) => {
          setEditing(null);
          if (created && can.authorize) setAuthorizing(row);
        }}
      />
      <ShareSignInModal staff={sharing} onClose={() => setSharing(null)} />
      <MenuAuthModal
        staff={authorizing}
        onClose={() => setAuthorizing(null)}
      />
    </>
  );
}
