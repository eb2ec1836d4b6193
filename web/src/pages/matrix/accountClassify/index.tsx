/** /account_classify — account groups (task.merchant_matrix_group): names with account counts; add, rename, delete. */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space } from 'antd';
import { useMemo, useState } from 'react';
import { addGroup, deleteGroup, editGroup, matrixKeys, matrixUrls } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { AccountGroup } from '@/api/matrix/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { groupFilterFields } from '../filters';
import { useMatrixT } from '../i18n';
import { GROUP_NAME_MAX } from '../rules';
import { atField } from '../shared/errors';

export default function AccountClassifyPage() {
  const { t } = useMatrixT();
  const [editing, setEditing] = useState<AccountGroup | null | undefined>(undefined);
  const remove = useWrite(deleteGroup, matrixKeys.all);
  const save = useWrite(({ id, name }: { id?: number; name: string }) => (id ? editGroup(id, name) : addGroup(name)), matrixKeys.all);

  const columns = useMemo<DataTableColumn<AccountGroup>[]>(
    () => [
      { title: t('group.name'), dataIndex: 'name', sorter: true },
      {
        title: t('group.accounts'),
        dataIndex: 'accounts',
        width: 140,
        sorter: true,
        render: (n: number, row) => <span data-testid={`group-accounts-${row.id}`}>{n ?? 0}</span>,
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 180, sorter: true, render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 180,
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`group-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('group.deleteConfirm', { name: row.name })}
              description={t('group.deleteHelp')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `group-delete-ok-${row.id}` } as never}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`group-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => groupFilterFields(t), [t]);

  return (
    <div data-testid="account-classify-page">
      <PageHeader
        title={t('common:menu.accountClassify')}
        subTitle={t('group.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="group-add">
            {t('group.add')}
          </Button>
        }
      />
      <DataTable<AccountGroup> id="groups" queryKey={matrixKeys.all} api={matrixUrls.groups} method="post" columns={columns} filterFields={filterFields} />
      <ModalForm<{ name: string }>
        open={editing !== undefined}
        title={editing ? t('group.editTitle') : t('group.addTitle')}
        initialValues={{ name: editing?.name ?? '' }}
        onCancel={() => setEditing(undefined)}
        onSubmit={async ({ name }) => {
          const value = name.trim();
          await atField(save.mutateAsync({ id: editing?.id, name: value }));
          feedback.success(t('common:savedSuccessfully'));
          setEditing(undefined);
        }}
        testId="group-form"
      >
        <Form.Item
          name="name"
          label={t('group.name')}
          rules={[
            { required: true, whitespace: true, message: t('group.nameRequired') },
            { max: GROUP_NAME_MAX, message: t('group.nameTooLong', { max: GROUP_NAME_MAX }) },
          ]}
        >
          <Input maxLength={GROUP_NAME_MAX} showCount data-testid="group-form-name" />
        </Form.Item>
      </ModalForm>
    </div>
  );
}
