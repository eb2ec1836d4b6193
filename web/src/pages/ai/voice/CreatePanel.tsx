/**
 * The "AI voice" tab: a script (≤ 300 characters), a voice (favourites first; a sample to play; a heart
 * to keep it), volume 0–100, speed and intonation -500–500 (SPEC §5), a free preview of the first
 * sentence, and "create" (a task; 1 point per started 100 characters). A 422 is shown at its field.
 */
import { HeartFilled, HeartOutlined, PlayCircleOutlined, SoundOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Form, Input, Row, Select, Slider, Space, Typography } from 'antd';
import { useMemo, useRef, useState } from 'react';
import { aiKeys, audition, fetchVoices, likeVoice, putTask } from '@/api/ai';
import { useWrite } from '@/api/mutations';
import CopyCheckHints from '@/components/CopyCheck';
import type { Audition, DubReq, Voice } from '@/api/ai/types';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { useAiT } from '../i18n';
import { MAX_CHARS, price, voiceGroups } from '../rules';

interface Values {
  text: string;
  voice: string;
  volume: number;
  speed: number;
  intonation: number;
  name: string;
}

export default function CreatePanel({ onQueued }: { onQueued: () => void }) {
  const { t } = useAiT();
  const [form] = Form.useForm<Values>();
  const voices = useQuery({ queryKey: aiKeys.voices, queryFn: fetchVoices, staleTime: 60_000 });
  const rows = useMemo(() => voices.data?.rows ?? [], [voices.data]);
  const text = (Form.useWatch('text', form) ?? '') as string;
  const voiceId = Form.useWatch('voice', form) as string | undefined;
  const current = rows.find((v) => v.id === voiceId);
  // an audition stores nothing; a task queued marks the task list stale
  const auditioning = useWrite(audition);
  const submitting = useWrite(putTask, aiKeys.tasks);
  const liking = useWrite(({ voice, like }: { voice: string; like: boolean }) => likeVoice(voice, like), aiKeys.voices);
  const [preview, setPreview] = useState<Audition | null>(null);
  const sampleRef = useRef<HTMLAudioElement>(null);

  const request = (v: Values): DubReq => ({
    text: v.text,
    voice: v.voice,
    volume: v.volume,
    speed: v.speed,
    intonation: v.intonation,
    name: v.name ?? '',
  });

  const run = async (what: 'audition' | 'submit') => {
    let v: Values;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      if (what === 'audition') {
        // Streamed: the first words play while the rest of the sentence is still being spoken.
        setPreview(await atFormField(form, auditioning.mutateAsync({ ...request(v), stream: true })));
      } else {
        const task = await atFormField(form, submitting.mutateAsync(request(v)));
        feedback.success(t('form.submitted', { points: task.points }));
        onQueued();
      }
    } catch {
      /* shown at the field or toasted */
    }
  };

  const toggleLike = async (v: Voice) => {
    await liking.mutateAsync({ voice: v.id, like: !v.liked });
  };

  const playSample = () => {
    if (!current?.sample || !sampleRef.current) return;
    sampleRef.current.src = current.sample;
    void sampleRef.current.play().catch(() => undefined);
  };

  const options = voiceGroups(rows).map((g) => ({
    label: t(`voice.${g.key}`),
    options: g.voices.map((v) => ({
      value: v.id,
      label: (
        <span data-testid={`voice-option-${v.id}`}>
          {v.name}
          {v.gender ? ` · ${t(`voice.${v.gender}`)}` : ''}
          {v.style ? ` · ${v.style}` : ''}
        </span>
      ),
    })),
  }));

  return (
    <Row gutter={[16, 16]}>
      <Col xs={24} xl={14}>
        <Card>
          <Form form={form} layout="vertical" initialValues={{ voice: 'zf_xiaoxiao', volume: 50, speed: 0, intonation: 0, name: '' }} data-testid="ai-form">
            <Form.Item
              name="text"
              label={t('form.text')}
              rules={[{ required: true, whitespace: true, message: t('form.textRequired') }]}
              // The copy precheck as the merchant types: a voice-over says these words in its videos.
              extra={<CopyCheckHints text={text} testId="ai-text-copy-check" onApply={(next) => form.setFieldsValue({ text: next })} />}
            >
              <Input.TextArea rows={6} maxLength={MAX_CHARS} showCount placeholder={t('form.textPlaceholder')} data-testid="ai-text" />
            </Form.Item>
            <Form.Item label={t('form.voice')} required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="voice" noStyle>
                  <Select options={options} showSearch optionFilterProp="value" data-testid="ai-voice" style={{ width: '100%' }} />
                </Form.Item>
                <Button icon={<PlayCircleOutlined />} onClick={playSample} disabled={!current?.sample} title={t('voice.sample')} data-testid="ai-voice-sample" />
                <Button
                  icon={current?.liked ? <HeartFilled /> : <HeartOutlined />}
                  disabled={!current}
                  onClick={() => current && void toggleLike(current)}
                  title={current?.liked ? t('voice.unlike') : t('voice.like')}
                  data-testid="ai-voice-like"
                />
              </Space.Compact>
              <audio ref={sampleRef} data-testid="ai-sample-audio" />
            </Form.Item>
            <Row gutter={16}>
              <Col span={8}>
                <Form.Item name="volume" label={t('form.volume')}>
                  <Slider min={0} max={100} data-testid="ai-volume" />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="speed" label={t('form.speed')}>
                  <Slider min={-500} max={500} step={50} data-testid="ai-speed" />
                </Form.Item>
              </Col>
              <Col span={8}>
                <Form.Item name="intonation" label={t('form.intonation')}>
                  <Slider min={-500} max={500} step={50} data-testid="ai-intonation" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="name" label={t('form.name')}>
              <Input maxLength={60} placeholder={t('form.namePlaceholder')} data-testid="ai-name" />
            </Form.Item>
            <Space wrap>
              <Button icon={<SoundOutlined />} loading={auditioning.isPending} onClick={() => void run('audition')} data-testid="ai-audition">
                {t('form.audition')}
              </Button>
              <Button type="primary" icon={<ThunderboltOutlined />} loading={submitting.isPending} onClick={() => void run('submit')} data-testid="ai-submit">
                {t('form.submit')}
              </Button>
              <Typography.Text type="secondary" data-testid="ai-cost">
                {t('form.cost', { points: price(text) })}
              </Typography.Text>
            </Space>
          </Form>
        </Card>
      </Col>
      <Col xs={24} xl={10}>
        {preview && (
          <Card title={t('form.audition')} data-testid="ai-preview">
            <audio
              controls
              autoPlay={preview.streamed}
              src={preview.audio}
              data-testid="ai-preview-audio"
              style={{ width: '100%' }}
            />
            {preview.lines.map((l) => (
              <Typography.Paragraph key={l.start_ms} data-testid="ai-preview-line">
                {l.content}
              </Typography.Paragraph>
            ))}
          </Card>
        )}
      </Col>
    </Row>
  );
}
