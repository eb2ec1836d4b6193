/**
 * /system/ai_provider — the AI title provider (Administrator, docs/api-seo.md "Title engine"): an
 * OpenAI-compatible service (base URL, model, key) that writes the merchants' titles instead of the
 * built-in engine. The key is sealed on the server and only shown masked; clearing it goes back to the
 * built-in engine.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, InputNumber, Popconfirm, Space, Spin, Tag } from 'antd';
import { useEffect } from 'react';
import { useWrite } from '@/api/mutations';
import { clearProvider, fetchProvider, saveProvider, seoKeys } from '@/api/seo';
import type { ProviderReq } from '@/api/seo/types';
import PageHeader from '@/components/PageHeader';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useSeoT } from '../i18n';
import AigcProviderCard from './AigcProviderCard';

export default function AiProviderPage() {
  const { t } = useSeoT();
  const client = useQueryClient();
  const [form] = Form.useForm<ProviderReq>();
  const provider = useQuery({ queryKey: seoKeys.provider, queryFn: fetchProvider, retry: false });
  // the answer is the provider as saved: it is put in place, nothing reads again
  const write = useWrite(saveProvider);
  const clearing = useWrite(clearProvider, seoKeys.provider);
  const configured = provider.data?.configured ?? false;

  useEffect(() => {
    if (provider.data) form.setFieldsValue({ base_url: provider.data.base_url, model: provider.data.model, api_key: '', timeout_s: provider.data.timeout_s });
  }, [provider.data, form]);

  const save = async () => {
    let v: ProviderReq;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      const req = { base_url: (v.base_url ?? '').trim(), model: (v.model ?? '').trim(), api_key: (v.api_key ?? '').trim(), timeout_s: v.timeout_s ?? 0 };
      client.setQueryData(seoKeys.provider, await atFormField(form, write.mutateAsync(req)));
      form.setFieldValue('api_key', '');
      feedback.success(t('common:savedSuccessfully'));
    } catch {
      /* shown at the field or toasted */
    }
  };

  const clear = async () => {
    await clearing.mutateAsync(undefined);
    feedback.success(t('provider.cleared'));
  };

  return (
    <div data-testid="ai-provider-page">
      <PageHeader title={t('common:menu.systemAiProvider')} subTitle={t('provider.subtitle')} />
      <Card size="small">
        <Spin spinning={provider.isFetching}>
          <Space style={{ marginBottom: 16 }}>
            {t('provider.inUse')}
            {provider.data ? (
              <Tag color={configured ? 'green' : 'blue'} data-testid="provider-state">
                {configured ? t('provider.openai') : t('provider.builtin')}
              </Tag>
            ) : null}
          </Space>
          {configured ? null : <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('provider.builtinHelp')} />}
          {configured && provider.data?.last_fallback ? (
            <Alert
              type="warning"
              showIcon
              style={{ marginBottom: 16 }}
              data-testid="provider-last-failure"
              title={t('provider.lastFailure', { time: formatTime(provider.data.last_fallback.at), use: t(`provider.uses.${provider.data.last_fallback.use_}`, { defaultValue: provider.data.last_fallback.use_ }) })}
              description={provider.data.last_fallback.reason}
            />
          ) : null}
          <Form<ProviderReq> form={form} layout="vertical" style={{ maxWidth: 560 }} data-testid="provider-form">
            <Form.Item
              name="base_url"
              label={t('provider.baseUrl')}
              extra={t('provider.baseUrlHelp')}
              rules={[{ required: true, whitespace: true, message: t('provider.baseUrlRequired') }, { pattern: /^\s*https?:\/\//, message: t('provider.baseUrlScheme') }]}
            >
              <Input placeholder="https://api.example.com/v1" data-testid="provider-base-url" />
            </Form.Item>
            <Form.Item name="model" label={t('provider.model')} rules={[{ required: true, whitespace: true, message: t('provider.modelRequired') }]}>
              <Input data-testid="provider-model" />
            </Form.Item>
            <Form.Item
              name="api_key"
              label={t('provider.apiKey')}
              extra={configured ? t('provider.apiKeyKeep', { key: provider.data?.api_key ?? '' }) : undefined}
              rules={configured ? [] : [{ required: true, whitespace: true, message: t('provider.apiKeyRequired') }]}
            >
              <Input.Password autoComplete="new-password" data-testid="provider-api-key" />
            </Form.Item>
            <Form.Item name="timeout_s" label={t('provider.timeout')} extra={t('provider.timeoutHelp')}>
              <InputNumber min={1} max={120} precision={0} suffix={t('provider.seconds')} data-testid="provider-timeout" />
            </Form.Item>
            <Space>
              <Button type="primary" loading={write.isPending} onClick={() => void save()} data-testid="provider-save">
                {t('provider.save')}
              </Button>
              <Popconfirm title={t('provider.clearConfirm')} onConfirm={() => void clear()} disabled={!configured} okButtonProps={{ danger: true, 'data-testid': 'provider-clear-ok' } as never}>
                <Button danger disabled={!configured} data-testid="provider-clear">
                  {t('provider.clear')}
                </Button>
              </Popconfirm>
            </Space>
          </Form>
        </Spin>
      </Card>
      <AigcProviderCard />
    </div>
  );
}
