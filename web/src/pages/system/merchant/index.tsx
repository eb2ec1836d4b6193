import { PlusOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { merchantProxyToken, setMerchantStatus, systemUrls } from '@/api/system';
import type { MerchantRow } from '@/api/system/types';
import DataTable, { type DataTableRef } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { merchantColumns } from './columns';
import { merchantFilterFields } from './filters';
import { MerchantFormModal, ResetPasswordModal, TopupModal } from './modals';

export default function MerchantPage() {
  const { t } = useTranslation('system');
  const table = useRef<DataTableRef>(null);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ row: MerchantRow | null } | null>(null);
  const [resetting, setResetting] = useState<MerchantRow | null>(null);
  const [topping, setTopping] = useState<MerchantRow | null>(null);

  const filterFields = useMemo(() => merchantFilterFields(t), [t]);
  const columns = useMemo(
    () =>
      merchantColumns(t, {
        onEdit: (row) => setEditing({ row }),
        onResetPassword: setResetting,
        onTopup: setTopping,
        onStatus: async (row, enabled) => {
          try {
            await setMerchantStatus(row.id, enabled ? 1 : 0);
            feedback.success(t(enabled ? 'merchant.enabled' : 'merchant.disabled'));
            table.current?.refresh();
          } catch {
            /* toasted */
          }
        },
        onEnter: async (row) => {
          // open the window first so the browser does not treat it as a pop-up
          const win = window.open('', '_blank');
          try {
            const res = await merchantProxyToken(row.id);
            const url = `/login?proxyToken=${encodeURIComponent(res.proxyToken)}`;
            if (win) win.location.href = url;
            else window.location.href = url;
          } catch {
            win?.close();
          }
        },
      }),
    [t],
  );

  return (
    <>
      <PageHeader
        title={t('common:menu.systemMerchant')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: null })} data-testid="merchant-add">
            {t('merchant.add')}
          </Button>
        }
      />
      <DataTable<MerchantRow>
        id="merchant"
        ref={table}
        api={systemUrls.merchants}
        params={name ? { name } : undefined}
        columns={columns}
        filterFields={filterFields}
        scrollX={1200}
        toolbar={<Input.Search allowClear placeholder={t('merchant.name')} onSearch={(v) => setName(v.trim())} style={{ width: 240 }} />}
      />
      <MerchantFormModal
        open={editing !== null}
        row={editing?.row ?? null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          table.current?.refresh();
        }}
      />
      <ResetPasswordModal row={resetting} onClose={() => setResetting(null)} />
      <TopupModal
        row={topping}
        onClose={() => setTopping(null)}
        onSaved={() => {
          setTopping(null);
          table.current?.refresh();
        }}
      />
    </>
  );
}
