/**
 * The "voice cloning" tab (docs/api-ai.md `/doubao.db_audio/*`): the merchant's clones with their
 * training state (asked of the provider on refresh), and a form that sends a voice-over material as
 * the sample. Without a provider the server's clear message is shown instead.
 */
import { ReloadOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Card, Empty, Form, Input, Select, Space, Tag } from 'antd';
import { aiKeys, fetchClones, uploadClone } from '@/api/ai';
import type { CloneReq } from '@/api/ai/types';
import { fetchVoiceFiles } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { useAiT } from '../i18n';
import { clock } from '../rules';

const COLOURS = { training: 'processing', ready: 'success', failed: 'error' } as const;

export default function ClonePanel() {
  const { t } = useAiT();
  const client = useQueryClient();
  const [form] = Form.useForm<CloneReq>();
  // a clone started shows in the clones and, once trained, among the voices
  const cloning = useWrite(uploadClone, aiKeys.all);
  const clones = useQuery({ queryKey: aiKeys.clones, queryFn: fetchClones, retry: false });
  const samples = useQuery({
    queryKey: aiKeys.samples,
    queryFn: fetchVoiceFiles,
    enabled: clones.isSuccess,
    retry: false,
  });

  if (clones.isError) {
    return <Alert type="info" showIcon title={clones.error instanceof Error ? clones.error.message : String(clones.error)} data-testid="clone-unavailable" />;
  }

  const submit = async () => {
    let v: CloneReq;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      await atFormField(form, cloning.mutateAsync(v));
      feedback.success(t('clone.started'));
      form.resetFields();
    } catch {
      /* shown at the field or toasted */
    }
  };

  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="large">
      <Alert type="info" title={t('clone.intro')} />
      <Card>
        <Form form={form} layout="inline" data-testid="clone-form">
          <Form.Item name="name" label={t('clone.name')} rules={[{ required: true, whitespace: true }]}>
            <Input maxLength={30} data-testid="clone-name" />
          </Form.Item>
          <Form.Item name="resource_id" label={t('clone.sample')} rules={[{ required: true }]}>
            <Select
              style={{ width: 280 }}
              placeholder={t('clone.samplePlaceholder')}
              data-testid="clone-sample"
              options={(samples.data?.rows ?? []).map((m) => ({ value: m.id, label: `${m.name} (${clock(m.duration_ms)})` }))}
            />
          </Form.Item>
          <Button type="primary" loading={cloning.isPending} onClick={() => void submit()} data-testid="clone-submit">
            {t('clone.submit')}
          </Button>
        </Form>
      </Card>
      <Card
        extra={
          <Button icon={<ReloadOutlined />} onClick={() => void client.invalidateQueries({ queryKey: aiKeys.all })} data-testid="clone-refresh">
            {t('clone.refresh')}
          </Button>
        }
      >
        {(clones.data?.rows ?? []).length === 0 && <Empty description={t('clone.empty')} />}
        {(clones.data?.rows ?? []).map((c) => (
          <div key={c.id} data-testid={`clone-${c.id}`} style={{ padding: '8px 0' }}>
            <Space>
              <strong>{c.name}</strong>
              <Tag color={COLOURS[c.state]} data-testid={`clone-state-${c.id}`}>
                {t(`clone.states.${c.state}`)}
              </Tag>
              {c.reason && <span>{c.reason}</span>}
            </Space>
          </div>
        ))}
      </Card>
    </Space>
  );
}
