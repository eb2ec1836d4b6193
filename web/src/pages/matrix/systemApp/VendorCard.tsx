/**
 * The data vendor on /system/app (docs/seo-platforms.md): TikHub's API key (never shown or prefilled,
 * sealed like the platforms' app secrets), set or cleared, and where benchmark figures come from now —
 * TikHub, the sandbox's simulation, or none.
 */
import { DeleteOutlined, EditOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Descriptions, Form, Input, Popconfirm, Space, Tag, Typography } from 'antd';
import { useState } from 'react';
import { clearVendor, fetchVendor, matrixKeys, saveVendor } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import ModalForm from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import { atField } from '../shared/errors';

const COLORS = { tikhub: 'green', sandbox: 'orange', none: 'default', douyin_open: 'green' } as const;

export default function VendorCard() {
  const { t } = useMatrixT();
  const [editing, setEditing] = useState(false);
  const vendor = useQuery({ queryKey: [...matrixKeys.all, 'vendor'], queryFn: fetchVendor });
  const save = useWrite((key: string) => saveVendor(key), matrixKeys.all);
  const clearing = useWrite(() => clearVendor(), matrixKeys.all);
  const v = vendor.data;

  return (
    <Card
      size="small"
      title={t('apps.vendor.title')}
      style={{ marginTop: 16 }}
      data-testid="vendor-card"
      extra={
        <Space size={0}>
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} data-testid="vendor-edit">
            {t('apps.vendor.edit')}
          </Button>
          <Popconfirm
            title={t('apps.vendor.clearConfirm')}
            okText={t('apps.clear')}
            cancelText={t('common:cancel')}
            onConfirm={async () => {
              try {
                await clearing.mutateAsync(undefined);
                feedback.success(t('apps.vendor.cleared'));
              } catch {
                /* toasted */
              }
            }}
            disabled={!v?.configured}
          >
            <Button type="link" size="small" danger icon={<DeleteOutlined />} disabled={!v?.configured} data-testid="vendor-clear">
              {t('apps.clear')}
            </Button>
          </Popconfirm>
        </Space>
      }
    >
      <Typography.Paragraph type="secondary">{t('apps.vendor.help')}</Typography.Paragraph>
      <Descriptions size="small" column={2}>
        <Descriptions.Item label={t('apps.vendor.apiKey')}>
          {v?.configured && v.api_key ? (
            <Typography.Text code data-testid="vendor-key">
              {v.api_key}
            </Typography.Text>
          ) : (
            <Typography.Text type="secondary" data-testid="vendor-key">
              {t('apps.notSet')}
            </Typography.Text>
          )}
        </Descriptions.Item>
        <Descriptions.Item label={t('apps.vendor.source')}>
          {v ? (
            <Tag color={COLORS[v.source]} data-testid="vendor-source" data-source={v.source}>
              {t(`apps.vendor.sources.${v.source}`, { defaultValue: v.source })}
            </Tag>
          ) : null}
        </Descriptions.Item>
      </Descriptions>
      <ModalForm<{ api_key: string }>
        open={editing}
        title={t('apps.vendor.title')}
        initialValues={{ api_key: '' }}
        onCancel={() => setEditing(false)}
        onSubmit={async (values) => {
          await atField(save.mutateAsync(values.api_key.trim()));
          feedback.success(t('common:savedSuccessfully'));
          setEditing(false);
        }}
        testId="vendor-form"
      >
        <Form.Item name="api_key" label={t('apps.vendor.apiKey')} rules={[{ required: true, whitespace: true, message: t('apps.vendor.keyRequired') }]}>
          <Input.Password autoComplete="new-password" data-testid="vendor-form-key" />
        </Form.Item>
      </ModalForm>
    </Card>
  );
}
