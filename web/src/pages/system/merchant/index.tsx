import { PlusOutlined } from '@ant-design/icons';
import { Button, Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWrite } from '@/api/mutations';
import { merchantProxyToken, setMerchantStatus, systemKeys, systemUrls } from '@/api/system';
import type { MerchantRow } from '@/api/system/types';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { merchantColumns } from './columns';
import { merchantFilterFields } from './filters';
import BannedWordsModal from './BannedWords';
import { MerchantFormModal, ResetPasswordModal, TopupModal } from './modals';

export default function MerchantPage() {
  const { t } = useTranslation('system');
  const status = useWrite(({ id, enabled }: { id: number; enabled: boolean }) => setMerchantStatus(id, enabled ? 1 : 0), systemKeys.all);
  const proxy = useWrite(merchantProxyToken);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ row: MerchantRow | null } | null>(null);
  const [resetting, setResetting] = useState<MerchantRow | null>(null);
  const [topping, setTopping] = useState<MerchantRow | null>(null);
  const [banning, setBanning] = useState<MerchantRow | null>(null);

  const filterFields = useMemo(() => merchantFilterFields(t), [t]);
  const columns = useMemo(
    () =>
      merchantColumns(t, {
        onEdit: (row) => setEditing({ row }),
        onResetPassword: setResetting,
        onTopup: setTopping,
        onBannedWords: setBanning,
        onStatus: async (row, enabled) => {
          try {
            await status.mutateAsync({ id: row.id, enabled });
            feedback.success(t(enabled ? 'merchant.enabled' : 'merchant.disabled'));
          } catch {
            /* toasted */
          }
        },
        onEnter: async (row) => {
          // open the window first so the browser does not treat it as a pop-up
          const win = window.open('', '_blank');
          try {
            const res = await proxy.mutateAsync(row.id);
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
        queryKey={systemKeys.all}
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
        onSaved={() => setEditing(null)}
      />
      <ResetPasswordModal row={resetting} onClose={() => setResetting(null)} />
      <BannedWordsModal row={banning} onClose={() => setBanning(null)} />
      <TopupModal
        row={topping}
        onClose={() => setTopping(null)}
        onSaved={() => setTopping(null)}
      />
    </>
  );
}
