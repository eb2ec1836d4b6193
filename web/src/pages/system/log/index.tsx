import { Input } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { OperationLog } from '@/api/auth/types';
import { systemUrls } from '@/api/system';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { logColumns } from '@/pages/auth/log/columns';
import { logFilterFields } from '@/pages/auth/log/filters';

export default function SystemLogPage() {
  const { t } = useTranslation('auth');
  const [username, setUsername] = useState('');
  const columns = useMemo(() => logColumns(t, true), [t]);
  const filterFields = useMemo(() => logFilterFields(t, true), [t]);
  return (
    <>
      <PageHeader title={t('common:menu.systemLog')} />
      <DataTable<OperationLog>
        id="system-log"
        api={systemUrls.log}
        params={username ? { username } : undefined}
        columns={columns}
        filterFields={filterFields}
        toolbar={<Input.Search allowClear placeholder={t('log.username')} onSearch={(v) => setUsername(v.trim())} style={{ width: 240 }} />}
      />
    </>
  );
}
