/**
 * The create dialog of a personal API token: name, scopes, expiry. The answer carries the token
 * itself this once: the dialog then shows it with a copy button and says it will not be shown again.
 */
import { CopyOutlined } from '@ant-design/icons';
import { Alert, Button, Checkbox, Form, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authKeys, createApiToken } from '@/api/auth';
import type { ApiTokenBody, CreatedApiToken, TokenScope } from '@/api/auth/types';
import { useWrite } from '@/api/mutations';
import ModalForm, { FullscreenModal } from '@/components/ModalForm';
import { copyText } from '@/utils/copy';

/** The scopes in the order the form lists them (`domain::permission::TokenScope`). */
export const SCOPES: TokenScope[] = ['read', 'materials', 'clip', 'publish', 'engagement', 'reports'];
/** Expiry choices in days (the server takes 1 to 365). */
const EXPIRY_DAYS = [7, 30, 90, 365];

interface Props {
  open: boolean;
  onClose: () => void;
}

export default function ApiTokenDialog({ open, onClose }: Props) {
  const { t } = useTranslation('auth');
  const creating = useWrite(createApiToken, authKeys.all);
  const [created, setCreated] = useState<CreatedApiToken | null>(null);

  const close = () => {
    setCreated(null);
    onClose();
  };

  if (created) {
    return (
      <FullscreenModal
        open={open}
        title={t('tokens.createdTitle', { name: created.name })}
        onCancel={close}
        footer={
          <Button type="primary" onClick={close} data-testid="token-created-done">
            {t('tokens.done')}
          </Button>
        }
        width={560}
        testId="token-created"
      >
        <Space orientation="vertical" style={{ width: '100%' }}>
          <Alert type="warning" showIcon title={t('tokens.shownOnce')} data-testid="token-shown-once" />
          <Space.Compact style={{ width: '100%' }}>
            <Input readOnly value={created.token} data-testid="token-value" />
            <Button icon={<CopyOutlined />} onClick={() => void copyText(created.token)} data-testid="token-copy">
              {t('tokens.copy')}
            </Button>
          </Space.Compact>
          <Typography.Text type="secondary">{t('tokens.usage')}</Typography.Text>
        </Space>
      </FullscreenModal>
    );
  }

  return (
    <ModalForm<ApiTokenBody>
      open={open}
      title={t('tokens.create')}
      initialValues={{ scopes: ['read'], expires_in_days: 30 }}
      onCancel={close}
      onSubmit={async (values) => setCreated(await creating.mutateAsync({ ...values, name: values.name.trim() }))}
      okText={t('tokens.create')}
      testId="token-form"
    >
      <Form.Item name="name" label={t('tokens.name')} rules={[{ required: true, whitespace: true, message: t('common:validation.required') }]}>
        <Input maxLength={50} placeholder={t('tokens.namePlaceholder')} data-testid="token-name" />
      </Form.Item>
      <Form.Item name="scopes" label={t('tokens.scopes')} rules={[{ required: true, message: t('tokens.scopesRequired') }]} extra={t('tokens.scopesHelp')}>
        <Checkbox.Group data-testid="token-scopes">
          <Space orientation="vertical">
            {SCOPES.map((s) => (
              <Checkbox key={s} value={s} data-testid={`token-scope-${s}`}>
                <Typography.Text strong>{t(`tokens.scope.${s}`)}</Typography.Text>{' '}
                <Typography.Text type="secondary">{t(`tokens.scopeHelp.${s}`)}</Typography.Text>
              </Checkbox>
            ))}
          </Space>
        </Checkbox.Group>
      </Form.Item>
      <Form.Item name="expires_in_days" label={t('tokens.expiry')} rules={[{ required: true }]}>
        <Select<number>
          options={EXPIRY_DAYS.map((d) => ({ value: d, label: t('tokens.days', { count: d }) }))}
          style={{ width: 200 }}
          data-testid="token-expiry"
        />
      </Form.Item>
    </ModalForm>
  );
}
