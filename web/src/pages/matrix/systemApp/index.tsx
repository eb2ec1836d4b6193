/**
 * /system/app — the platform apps (Administrator): per platform its authorization kind, the masked
 * client key and its own mode (live, sandbox or off: `ModeCell`); set the key and secret (the secret is
 * never shown or prefilled) or clear them (the platform then takes its default mode); the creator
 * consoles' page check (run it, its result, resume a paused platform); below, WeChat notices' mode
 * and the SEO data vendor's API key.
 */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { Button, Form, Input, Popconfirm, Space, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { clearApp, matrixKeys, matrixUrls, saveApp } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { Platform, PlatformApp } from '@/api/matrix/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import { atField } from '../shared/errors';
import { PlatformTag } from '../shared/tags';
import CanaryCell from './CanaryCell';
import ModeCell from './ModeCell';
import ServicesCard from './ServicesCard';
import VendorCard from './VendorCard';

interface Values {
  client_key: string;
  client_secret: string;
}

export default function SystemAppPage() {
  const { t } = useMatrixT();
  const [editing, setEditing] = useState<PlatformApp | null>(null);
  const clearing = useWrite(clearApp, matrixKeys.all);
  const save = useWrite(({ platform, key, secret }: { platform: Platform; key: string; secret: string }) => saveApp(platform, key, secret), matrixKeys.all);

  const columns = useMemo<DataTableColumn<PlatformApp>[]>(
    () => [
      { title: t('apps.platform'), dataIndex: 'platform', width: 150, render: (p: Platform, row) => <PlatformTag platform={p} testId={`app-platform-${row.platform}`} /> },
      { title: t('apps.authKind'), dataIndex: 'auth_kind', width: 150, render: (k: string) => t(`apps.kind.${k}`, { defaultValue: k }) },
      {
        title: t('apps.clientKey'),
        dataIndex: 'client_key',
        render: (k: string | null, row) =>
          row.configured && k ? (
            <Typography.Text code data-testid={`app-key-${row.platform}`}>
              {k}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary" data-testid={`app-key-${row.platform}`}>
              {t('apps.notSet')}
            </Typography.Text>
          ),
      },
      {
        title: t('apps.mode'),
        dataIndex: 'mode',
        width: 220,
        render: (m: PlatformApp['mode'], row) => <ModeCell target={row.platform} name={t(`platform.${row.platform}`)} mode={m} modeSet={row.mode_set} blocked={row.blocked} />,
      },
      {
        title: t('apps.check.column'),
        key: 'canary',
        width: 280,
        render: (_, row) => (row.checkable ? <CanaryCell app={row} /> : null),
      },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 170,
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`app-edit-${row.platform}`}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('apps.clearConfirm', { platform: t(`platform.${row.platform}`) })}
              description={t('apps.clearHelp')}
              okText={t('apps.clear')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `app-clear-ok-${row.platform}` } as never}
              onConfirm={async () => {
                try {
                  await clearing.mutateAsync(row.platform);
                  feedback.success(t('apps.cleared'));
                } catch {
                  /* toasted */
                }
              }}
              disabled={!row.configured}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={!row.configured} data-testid={`app-clear-${row.platform}`}>
                {t('apps.clear')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  return (
    <div data-testid="system-app-page">
      <PageHeader title={t('common:menu.systemApp')} subTitle={t('apps.subtitle')} />
      <DataTable<PlatformApp> id="apps" queryKey={matrixKeys.all} api={matrixUrls.apps} method="post" rowKey="platform" pagination={false} columns={columns} />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8 }} data-testid="apps-mode-help">
        {t('apps.modeHelp')}
      </Typography.Paragraph>
      <ServicesCard />
      <VendorCard />
      <ModalForm<Values>
        open={editing !== null}
        title={editing ? t('apps.editTitle', { platform: t(`platform.${editing.platform}`) }) : ''}
        initialValues={{ client_key: '', client_secret: '' }}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          if (!editing) return;
          await atField(save.mutateAsync({ platform: editing.platform, key: v.client_key.trim(), secret: v.client_secret.trim() }));
          feedback.success(t('common:savedSuccessfully'));
          setEditing(null);
        }}
        testId="app-form"
      >
        {editing?.configured ? <Typography.Paragraph type="secondary">{t('apps.replaceHelp', { key: editing.client_key ?? '' })}</Typography.Paragraph> : null}
        <Form.Item name="client_key" label={t('apps.clientKey')} rules={[{ required: true, whitespace: true, message: t('apps.keyRequired') }]}>
          <Input autoComplete="off" data-testid="app-form-key" />
        </Form.Item>
        <Form.Item name="client_secret" label={t('apps.clientSecret')} rules={[{ required: true, whitespace: true, message: t('apps.secretRequired') }]}>
          <Input.Password autoComplete="new-password" data-testid="app-form-secret" />
        </Form.Item>
      </ModalForm>
    </div>
  );
}
