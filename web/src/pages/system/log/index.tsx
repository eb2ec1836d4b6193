import { Input, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperationLog } from '@/api/auth/types';
import { systemUrls } from '@/api/system';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { logColumns } from '@/pages/auth/log/columns';
import { logFilterFields } from '@/pages/auth/log/filters';
import MerchantPicker, { merchantFilter, type PickedMerchant } from '../shared/MerchantPicker';

export default function SystemLogPage() {
  const { t } = useTranslation('auth');
  const [username, setUsername] = useState('');
  const [merchant, setMerchant] = useState<PickedMerchant | undefined>();
  const columns = useMemo(() => logColumns(t, true), [t]);
  const filterFields = useMemo(() => logFilterFields(t, true), [t]);
  const params = useMemo(
    () => ({ ...(username ? { username } : {}), ...(merchant ? { filterObj: merchantFilter(merchant, 'merchant_name') } : {}) }),
    [username, merchant],
  );
  return (
    <>
      <PageHeader title={t('common:menu.systemLog')} />
      <DataTable<OperationLog>
        id="system-log"
        api={systemUrls.log}
        params={params}
        columns={columns}
        filterFields={filterFields}
        toolbar={
          <Space wrap>
            <MerchantPicker value={merchant} onChange={setMerchant} testId="system-log-merchant" />
            <Input.Search allowClear placeholder={t('log.username')} onSearch={(v) => setUsername(v.trim())} style={{ width: 240 }} />
          </Space>
        }
      />
    </>
  );
}
