import { PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Select, Space, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useWrite } from '@/api/mutations';
import { addRole, deleteRole, editRole, systemKeys, systemUrls } from '@/api/system';
import type { RoleRow } from '@/api/system/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';

const PERMISSION_RE = /^(\*|[A-Za-z0-9_.-]+)\/(\*|[A-Za-z0-9_.-]+)\/(\*|[A-Za-z0-9_.-]+)$/;

export default function RolePage() {
  const { t } = useTranslation('system');
  const remove = useWrite(deleteRole, systemKeys.all);
  const edit = useWrite(editRole, systemKeys.all);
  const add = useWrite(addRole, systemKeys.all);
  const [editing, setEditing] = useState<{ row: RoleRow | null } | null>(null);

  const columns = useMemo<DataTableColumn<RoleRow>[]>(
    () => [
      { title: 'ID', dataIndex: 'id', width: 70 },
      { title: t('role.name'), dataIndex: 'name' },
      {
        title: t('role.permissions'),
        dataIndex: 'permissions',
        render: (perms: string[]) => (
          <Space size={[4, 4]} wrap>
            {(perms ?? []).map((p) => (
              <Tag key={p}>{p}</Tag>
            ))}
          </Space>
        ),
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" onClick={() => setEditing({ row })}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('role.deleteConfirm', { name: row.name })}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    [t],
  );

  const row = editing?.row ?? null;
  return (
    <>
      <PageHeader
        title={t('common:menu.systemRole')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing({ row: null })}>
            {t('role.add')}
          </Button>
        }
      />
      <DataTable<RoleRow> id="role" queryKey={systemKeys.all} api={systemUrls.roles} columns={columns} />
      <ModalForm<{ name: string; permissions: string[] }>
        open={editing !== null}
        title={row ? t('role.edit') : t('role.add')}
        initialValues={row ? { name: row.name, permissions: row.permissions } : { permissions: [] }}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          const body = { name: v.name.trim(), permissions: v.permissions ?? [] };
          if (row) await edit.mutateAsync({ id: row.id, ...body });
          else await add.mutateAsync(body);
          feedback.success(t('common:savedSuccessfully'));
          setEditing(null);
        }}
        testId="role-modal"
      >
        <Form.Item name="name" label={t('role.name')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
          <Input />
        </Form.Item>
        <Form.Item
          name="permissions"
          label={t('role.permissions')}
          extra={t('role.permissionsHint')}
          rules={[
            {
              validator: (_, list: string[] = []) =>
                list.every((p) => PERMISSION_RE.test(p)) ? Promise.resolve() : Promise.reject(new Error(t('role.permissionFormat'))),
            },
          ]}
        >
          <Select mode="tags" tokenSeparators={[',', ' ']} placeholder="index/log/*" />
        </Form.Item>
      </ModalForm>
    </>
  );
}
