/**
 * Dictionaries (operator, /system/dic): the option lists every dictionary select reads through
 * `GET /system/dic?name=`. Each row previews its dictionary with the DictSelect the console uses, so
 * the operator sees the labels as a reader in the current language does (bilingual labels
 * '中文 / English' are localized by the server).
 */
import { PlusOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Button, Input, Popconfirm, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWrite } from '@/api/mutations';
import { deleteDic, systemKeys, systemUrls } from '@/api/system';
import type { DicOption, DicRow } from '@/api/system/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import DictSelect from '@/components/DictSelect';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import DicFormModal from './DicFormModal';
import { dicFilterFields } from './filters';

const SHOWN_OPTIONS = 5;

export default function DicPage() {
  const { t } = useTranslation('system');
  const queryClient = useQueryClient();
  const remove = useWrite(deleteDic, systemKeys.all);
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<{ row: DicRow | null } | null>(null);

  const columns = useMemo<DataTableColumn<DicRow>[]>(
    () => [
      { title: 'ID', dataIndex: 'id', width: 70, hide: true },
      { title: t('dic.name'), dataIndex: 'name', sorter: true, render: (n: string) => <Typography.Text code>{n}</Typography.Text> },
      { title: t('dic.title'), dataIndex: 'title', sorter: true },
      {
        title: t('dic.options'),
        dataIndex: 'options',
        render: (options: DicOption[] = []) => (
          <Space size={[4, 4]} wrap>
            {options.slice(0, SHOWN_OPTIONS).map((o) => (
              <Tooltip key={o.value} title={o.value}>
                <Tag>{o.label}</Tag>
              </Tooltip>
            ))}
            {options.length > SHOWN_OPTIONS ? <Tag>+{options.length - SHOWN_OPTIONS}</Tag> : null}
          </Space>
        ),
      },
      {
        title: t('dic.preview'),
        key: 'preview',
        width: 220,
        render: (_, row) => <DictSelect name={row.name} placeholder={t('dic.previewPlaceholder')} style={{ width: 200 }} testId={`dic-preview-${row.name}`} />,
      },
      { title: t('dic.updatedAt'), dataIndex: 'updated_at', render: formatTime, sorter: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing({ row })} data-testid={`dic-edit-${row.name}`}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('dic.deleteConfirm', { name: row.name })}
              description={t('dic.deleteHint')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': 'dic-delete-ok' }}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  queryClient.removeQueries({ queryKey: systemKeys.dic(row.name) });
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger data-testid={`dic-delete-${row.name}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t, queryClient],
  );
  const filterFields = useMemo(() => dicFilterFields(t), [t]);

  return (
    <>
      <PageHeader
        title={t('common:menu.systemDic')}
        subTitle={t('dic.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: null })} data-testid="dic-add">
            {t('dic.add')}
          </Button>
        }
      />
      <DataTable<DicRow>
        id="dic"
        queryKey={systemKeys.all}
        api={systemUrls.dics}
        params={name ? { name } : undefined}
        columns={columns}
        filterFields={filterFields}
        scrollX={1000}
        toolbar={
          <Input.Search allowClear placeholder={t('dic.searchName')} onSearch={(v) => setName(v.trim())} style={{ width: 240 }} data-testid="dic-search" />
        }
      />
      <DicFormModal
        editing={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          feedback.success(t('common:savedSuccessfully'));
        }}
      />
    </>
  );
}
