import { Button, Form, Input, InputNumber, Space, Switch, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { MenuNode } from '@/api/auth/types';
import { useWrite } from '@/api/mutations';
import { editMenu, systemKeys, systemUrls } from '@/api/system';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { renderIcon } from '@/router/icons';
import { menuTitle } from '@/router/menu';
import { routeByPath } from '@/router/routes';
import { feedback } from '@/utils/feedback';

interface MenuValues {
  icon?: string;
  hidden: boolean;
  vip: boolean;
  sort?: number;
}

export default function MenuPage() {
  const { t } = useTranslation('system');
  const edit = useWrite(editMenu, systemKeys.all);
  const [editing, setEditing] = useState<MenuNode | null>(null);

  const columns = useMemo<DataTableColumn<MenuNode>[]>(
    () => [
      {
        title: t('menu.title'),
        dataIndex: 'name',
        render: (name: string, row) => (
          <span>
            {renderIcon(row.icon)} {menuTitle(name, row.path)}
          </span>
        ),
      },
      { title: t('menu.path'), dataIndex: 'path', render: (p: string) => <Typography.Text code>{p}</Typography.Text> },
      {
        title: t('menu.permission'),
        dataIndex: 'permission',
        render: (p: MenuNode['permission']) => (
          <Space size={[4, 4]} wrap>
            {(Array.isArray(p) ? p : p ? [p] : []).map((x) => (
              <Tag key={x}>{x}</Tag>
            ))}
          </Space>
        ),
      },
      {
        title: t('menu.flags'),
        key: 'flags',
        render: (_, row) => (
          <>
            {row.admin ? <Tag color="purple">Administrator</Tag> : null}
            {row.hidden ? <Tag>{t('menu.hidden')}</Tag> : null}
            {row.vip ? <Tag color="gold">VIP</Tag> : null}
          </>
        ),
      },
      {
        title: t('menu.page'),
        key: 'page',
        render: (_, row) =>
          routeByPath.has(row.path) ? <Tag color="green">{t('menu.pageReady')}</Tag> : <Tag>{t('menu.pageMissing')}</Tag>,
      },
      {
        title: t('common:actions'),
        key: 'actions',
        render: (_, row) => (
          <Button type="link" size="small" onClick={() => setEditing(row)}>
            {t('common:edit')}
          </Button>
        ),
      },
    ],
    [t],
  );

  return (
    <>
      <PageHeader title={t('common:menu.systemMenu')} subTitle={t('menu.subtitle')} />
      <DataTable<MenuNode>
        id="menu"
        queryKey={systemKeys.all}
        api={systemUrls.menus}
        pagination={false}
        columns={columns}
        expandAll
      />
      <ModalForm<MenuValues>
        open={editing !== null}
        title={t('menu.edit')}
        initialValues={editing ? { icon: editing.icon ?? undefined, hidden: editing.hidden, vip: editing.vip } : undefined}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          await edit.mutateAsync({ id: editing!.id, icon: v.icon || undefined, hidden: v.hidden, vip: v.vip, sort: v.sort ?? undefined });
          feedback.success(t('common:savedSuccessfully'));
          setEditing(null);
        }}
        testId="menu-modal"
      >
        <Form.Item name="icon" label={t('menu.icon')}>
          <Input placeholder="DashboardOutlined" />
        </Form.Item>
        <Form.Item name="hidden" label={t('menu.hidden')} valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="vip" label="VIP" valuePropName="checked">
          <Switch />
        </Form.Item>
        <Form.Item name="sort" label={t('menu.sort')}>
          <InputNumber precision={0} style={{ width: '100%' }} />
        </Form.Item>
      </ModalForm>
    </>
  );
}
