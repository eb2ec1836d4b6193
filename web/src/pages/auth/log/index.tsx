import { Button, Form, Input, Space } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authUrls } from '@/api/auth';
import type { OperationLog } from '@/api/auth/types';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { logColumns } from './columns';
import { logFilterFields } from './filters';

interface Filters {
  username?: string;
  action?: string;
}

export default function OperationLogPage() {
  const { t } = useTranslation('auth');
  const [filters, setFilters] = useState<Filters>({});
  const columns = useMemo(() => logColumns(t), [t]);
  const filterFields = useMemo(() => logFilterFields(t), [t]);
  const [form] = Form.useForm<Filters>();

  const apply = (values: Filters) =>
    setFilters(Object.fromEntries(Object.entries(values).filter(([, v]) => typeof v === 'string' && v.trim())) as Filters);

  return (
    <>
      <PageHeader title={t('common:menu.log')} subTitle={t('log.subtitle')} />
      <DataTable<OperationLog>
        id="log"
        api={authUrls.log}
        exportApi={authUrls.logExport}
        params={filters as Record<string, unknown>}
        columns={columns}
        filterFields={filterFields}
        toolbar={
          <Form form={form} layout="inline" onFinish={apply}>
            <Form.Item name="username">
              <Input allowClear placeholder={t('log.username')} data-testid="log-filter-username" />
            </Form.Item>
            <Form.Item name="action">
              <Input allowClear placeholder={t('log.action')} />
            </Form.Item>
            <Space>
              <Button type="primary" htmlType="submit" data-testid="log-search">
                {t('common:search')}
              </Button>
              <Button
                onClick={() => {
                  form.resetFields();
                  setFilters({});
                }}
              >
                {t('common:reset')}
              </Button>
            </Space>
          </Form>
        }
      />
    </>
  );
}
