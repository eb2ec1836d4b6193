/**
 * The provider the AI-content labels name (issue 39, GB 45438-2025 §6.1): its name and code, set once
 * by the operator; every generated video, cover and voice-over carries it as `ContentProducer` in its
 * `AIGC` metadata. The visible labels cannot be turned off for generated content (the card says why).
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Space, Tag } from 'antd';
import { useEffect } from 'react';
import { useWrite } from '@/api/mutations';
import { fetchAigcProvider, saveAigcProvider, seoKeys } from '@/api/seo';
import type { AigcProvider } from '@/api/seo/types';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { useSeoT } from '../i18n';

export default function AigcProviderCard() {
  const { t } = useSeoT();
  const client = useQueryClient();
  const [form] = Form.useForm<AigcProvider>();
  const current = useQuery({ queryKey: seoKeys.aigcProvider, queryFn: fetchAigcProvider, retry: false });
  const write = useWrite(saveAigcProvider);

  useEffect(() => {
    if (current.data) form.setFieldsValue(current.data.provider);
  }, [current.data, form]);

  const save = async () => {
    let v: AigcProvider;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      const req = { name: (v.name ?? '').trim(), code: (v.code ?? '').trim() };
      client.setQueryData(seoKeys.aigcProvider, await atFormField(form, write.mutateAsync(req)));
      feedback.success(t('common:savedSuccessfully'));
    } catch {
      /* shown at the field or toasted */
    }
  };

  return (
    <Card size="small" title={t('aigc.title')} style={{ marginTop: 16 }} data-testid="aigc-provider">
      <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('aigc.why')} />
      <Space style={{ marginBottom: 16 }}>
        {t('aigc.producer')}
        {current.data ? <Tag data-testid="aigc-producer">{current.data.producer}</Tag> : null}
      </Space>
      <Form<AigcProvider> form={form} layout="vertical" style={{ maxWidth: 560 }}>
        <Form.Item name="name" label={t('aigc.name')} rules={[{ max: 64 }]}>
          <Input data-testid="aigc-name" />
        </Form.Item>
        <Form.Item name="code" label={t('aigc.code')} extra={t('aigc.codeHelp')} rules={[{ max: 64 }]}>
          <Input data-testid="aigc-code" />
        </Form.Item>
        <Button type="primary" loading={write.isPending} onClick={() => void save()} data-testid="aigc-save">
          {t('aigc.save')}
        </Button>
      </Form>
    </Card>
  );
}
