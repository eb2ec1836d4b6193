/**
 * /newAiHome (zh) = /oneKeyVideoNew (en) — one-touch video (docs/api-clip.md "One-touch
 * video"): a topic or product description (with footage — video clips or images —, target length,
 * groups or image categories, count, voice and a style template) becomes a script, a voice-over, clips
 * or images matched to its sentences and N unique videos — one durable job whose steps and progress
 * arrive as `one_touch` events of /api/events; the lists reload when one moves on. Video projects and
 * image projects are listed in two tabs.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Empty, Form, Input, InputNumber, Progress, Radio, Select, Space, Steps, Tabs, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { fetchVoices } from '@/api/ai';
import { clipKeys } from '@/api/clip';
import {
  copyAiClip,
  deleteAiClip,
  fetchOneTouchGroups,
  fetchOneTouchProjects,
  fetchOneTouchVideos,
  fetchTemplates,
  oneTouchNew,
  startAiClip,
  type OneTouchJob,
  type OneTouchKind,
  type OneTouchReq,
} from '@/api/clip/aiclip';
import { fetchFileTypes } from '@/api/materials';
import { subscribeMediaEvents } from '@/api/materials/events';
import { useWrite } from '@/api/mutations';
import CopyCheckHints from '@/components/CopyCheck';
import PageHeader from '@/components/PageHeader';
import WriterTag from '@/components/WriterTag';
import { feedback } from '@/utils/feedback';
import { showSubmitError } from '@/utils/submitError';
import { useClipT } from '../i18n';
import '../clip.css';

const STEPS = ['script', 'voice', 'match', 'rendering', 'done'] as const;
/** Points per video (quick mix's price, docs/api-clip.md). */
const POINTS_EACH = 2;
/** Target length limits, seconds (domain::aiclip::SECONDS). */
const SECONDS = { min: 15, max: 60, default: 30 } as const;
/** Fields a 422 is shown at. */
const FIELDS = ['kind', 'seconds', 'topic', 'title', 'name', 'group_ids', 'count', 'voice', 'template_id'];

function Videos({ job }: { job: OneTouchJob }) {
  const { t } = useClipT();
  const videos = useQuery({
    queryKey: ['clip', 'oneTouchVideos', job.id, job.variants.success],
    queryFn: () => fetchOneTouchVideos(job.id, job.kind),
    enabled: job.project_id > 0,
  });
  const rows = videos.data?.rows ?? [];
  return (
    <div>
      <Typography.Text strong>{t('oneTouch.videos', { done: job.variants.success, count: job.count })}</Typography.Text>
      <Space wrap style={{ display: 'flex', marginTop: 8 }}>
        {rows.map((v) =>
          v.src ? (
            <a key={v.id} href={v.src} target="_blank" rel="noreferrer" data-testid={`one-touch-video-${v.id}`}>
              {v.cover ? <img src={v.cover} alt={`#${v.id}`} style={{ width: 72, height: 128, objectFit: 'cover', borderRadius: 4 }} /> : `#${v.id}`}
            </a>
          ) : (
            <Tag key={v.id}>
              #{v.id} {v.progress}%
            </Tag>
          ),
        )}
      </Space>
    </div>
  );
}

function JobCard({ job }: { job: OneTouchJob }) {
  const { t } = useClipT();
  // retry, copy and delete each mark the jobs stale
  const write = useWrite((call: () => Promise<unknown>) => call(), clipKeys.oneTouchJobs);
  // A failed job marks the step it stopped at (not the first one).
  const current = STEPS.indexOf((job.state === 'failed' ? (job.failed_step ?? 'script') : job.state) as (typeof STEPS)[number]);
  const act = (f: () => Promise<unknown>) => write.mutateAsync(f);
  return (
    <Card
      size="small"
      data-testid={`one-touch-job-${job.id}`}
      data-state={job.state}
      title={
        <Space>
          <span>{job.name}</span>
          <Tag data-testid={`one-touch-kind-${job.id}`}>{t(`oneTouch.kinds.${job.kind === 'image' ? 'image' : 'video'}`)}</Tag>
          <Tag color={job.state === 'done' ? 'success' : job.state === 'failed' ? 'error' : 'processing'} data-testid={`one-touch-state-${job.id}`}>
            {t(`oneTouch.steps.${job.state}`)}
          </Tag>
        </Space>
      }
      extra={
        <Space>
          {job.state === 'failed' || job.state === 'draft' ? (
            <Button size="small" onClick={() => void act(() => startAiClip(job.id))} data-testid={`one-touch-retry-${job.id}`}>
              {t('oneTouch.retry')}
            </Button>
          ) : null}
          <Button size="small" onClick={() => void act(() => copyAiClip(job.id))}>
            {t('oneTouch.copy')}
          </Button>
          {['done', 'failed', 'draft'].includes(job.state) ? (
            <Button size="small" danger onClick={() => void act(() => deleteAiClip(job.id))}>
              {t('oneTouch.delete')}
            </Button>
          ) : null}
        </Space>
      }
    >
      <Steps
        size="small"
        current={current < 0 ? 0 : current}
        status={job.state === 'failed' ? 'error' : job.state === 'done' ? 'finish' : 'process'}
        items={STEPS.map((s) => ({ title: t(`oneTouch.steps.${s}`) }))}
        style={{ marginBottom: 8 }}
      />
      <Progress percent={job.progress} format={(p) => `${p}%`} status={job.state === 'failed' ? 'exception' : job.state === 'done' ? 'success' : 'active'} data-testid={`one-touch-progress-${job.id}`} />
      {job.reason ? (
        <Typography.Text type="danger" data-testid={`one-touch-reason-${job.id}`}>
          {job.reason}
        </Typography.Text>
      ) : null}
      {job.script.length ? (
        <div data-testid={`one-touch-script-${job.id}`} style={{ marginTop: 8 }}>
          <Typography.Text strong>{t('oneTouch.script')}</Typography.Text>
          {job.source && job.writer ? (
            <>
              {' '}
              <WriterTag source={job.source} testId={`one-touch-writer-${job.id}`} />
            </>
          ) : job.writer ? (
            <Typography.Text type="secondary"> ({t(`oneTouch.writer.${job.writer}`)})</Typography.Text>
          ) : null}
          <ol style={{ margin: '4px 0 0', paddingInlineStart: 20 }}>
            {job.script.map((s, i) => (
              <li key={i}>{s}</li>
            ))}
          </ol>
        </div>
      ) : null}
      {job.shots.length ? (
        <div style={{ marginTop: 8 }} data-testid={`one-touch-shots-${job.id}`}>
          <Typography.Text strong>{t('oneTouch.shots')}</Typography.Text>{' '}
          {job.shots.map((s, i) => (
            <Tag key={i}>
              {s.group_name} · {Math.round(s.max_ms / 1000)}s{s.images?.length ? ` · ${t('oneTouch.imageCount', { count: s.images.length })}` : ''}
            </Tag>
          ))}
        </div>
      ) : null}
      {job.project_id > 0 ? <Videos job={job} /> : null}
    </Card>
  );
}

export default function NewAiHomePage() {
  const { t } = useClipT();
  const qc = useQueryClient();
  const [form] = Form.useForm<OneTouchReq>();
  const count = Form.useWatch('count', form) ?? 5;
  const kind: OneTouchKind = Form.useWatch('kind', form) ?? 'video';
  // The topic and the title are checked as typed, like the server does before it queues the job.
  const topic: string | undefined = Form.useWatch('topic', form);
  const title: string | undefined = Form.useWatch('title', form);
  const [tab, setTab] = useState<OneTouchKind>('video');
  const submitting = useWrite(oneTouchNew, clipKeys.oneTouchJobs);
  const groups = useQuery({ queryKey: ['clip', 'oneTouchGroups'], queryFn: fetchOneTouchGroups });
  const categories = useQuery({ queryKey: ['materials', 'fileTypes', 'image'], queryFn: () => fetchFileTypes('image'), enabled: kind === 'image' });
  const voices = useQuery({ queryKey: ['ai', 'voices'], queryFn: fetchVoices, retry: false });
  const templates = useQuery({ queryKey: ['clip', 'templates', 'all'], queryFn: () => fetchTemplates() });
  const jobs = useQuery({ queryKey: [...clipKeys.oneTouchJobs, tab], queryFn: () => fetchOneTouchProjects(tab) });

  // Steps and progress arrive on the shared event stream; any change of a job marks the jobs stale.
  useEffect(
    () =>
      subscribeMediaEvents({
        onOneTouch: () => void qc.invalidateQueries({ queryKey: clipKeys.oneTouchJobs }),
      }),
    [qc],
  );

  const submit = async () => {
    const v = await form.validateFields();
    try {
      await submitting.mutateAsync({ ...v, topic: v.topic.trim() });
      feedback.success(t('oneTouch.queued'));
      // The new project shows in its kind's tab.
      setTab(v.kind ?? 'video');
    } catch (e) {
      // the server names the variant count `variants`; the form calls it `count`
      showSubmitError(form, e, FIELDS, { variants: 'count' });
    }
  };

  const rows = jobs.data?.rows ?? [];
  return (
    <div data-testid="one-touch-page">
      <PageHeader title={t('oneTouch.title')} subTitle={t('oneTouch.subTitle')} />
      <Card size="small" style={{ marginBottom: 16 }}>
        <Form form={form} layout="vertical" initialValues={{ kind: 'video', seconds: SECONDS.default, count: 5 }}>
          <Space wrap align="start" size={16}>
            <Form.Item name="kind" label={t('oneTouch.kind')} extra={t(kind === 'image' ? 'oneTouch.kindImageTip' : 'oneTouch.kindVideoTip')}>
              <Radio.Group
                optionType="button"
                data-testid="one-touch-kind"
                onChange={() => form.setFieldValue('group_ids', [])}
                options={[
                  { value: 'video', label: t('oneTouch.kinds.video') },
                  { value: 'image', label: t('oneTouch.kinds.image') },
                ]}
              />
            </Form.Item>
            <Form.Item
              name="seconds"
              label={t('oneTouch.seconds')}
              extra={t('oneTouch.secondsTip', SECONDS)}
              rules={[{ type: 'number', min: SECONDS.min, max: SECONDS.max, message: t('oneTouch.secondsRange', SECONDS) }]}
            >
              <InputNumber min={SECONDS.min} max={SECONDS.max} precision={0} suffix={t('oneTouch.secondsUnit')} data-testid="one-touch-seconds" />
            </Form.Item>
          </Space>
          <Form.Item
            name="topic"
            label={t('oneTouch.topic')}
            rules={[{ required: true, whitespace: true, message: t('oneTouch.topicRequired') }, { max: 200 }]}
            extra={<CopyCheckHints text={topic} testId="one-touch-topic-copy-check" onApply={(next) => form.setFieldsValue({ topic: next })} />}
          >
            <Input.TextArea rows={3} maxLength={200} showCount placeholder={t('oneTouch.topicPlaceholder')} data-testid="one-touch-topic" />
          </Form.Item>
          <Space wrap align="start" size={16}>
            <Form.Item
              name="title"
              label={t('oneTouch.videoTitle')}
              extra={
                <>
                  {t('oneTouch.videoTitleTip')}
                  <CopyCheckHints text={title} testId="one-touch-title-copy-check" onApply={(next) => form.setFieldsValue({ title: next })} />
                </>
              }
              rules={[{ max: 20 }]}
            >
              <Input maxLength={20} style={{ width: 220 }} data-testid="one-touch-title" />
            </Form.Item>
            <Form.Item name="name" label={t('oneTouch.name')} extra={t('oneTouch.nameTip')} rules={[{ max: 50 }]}>
              <Input maxLength={50} style={{ width: 220 }} data-testid="one-touch-name" />
            </Form.Item>
            <Form.Item name="count" label={t('oneTouch.count')} extra={t('oneTouch.countTip', { points: count * POINTS_EACH, each: POINTS_EACH })}>
              <InputNumber min={1} max={20} precision={0} data-testid="one-touch-count" />
            </Form.Item>
            <Form.Item name="voice" label={t('oneTouch.voice')}>
              <Select
                allowClear
                style={{ width: 200 }}
                placeholder={t('oneTouch.voiceDefault')}
                data-testid="one-touch-voice"
                options={(voices.data?.rows ?? []).map((v) => ({ value: v.id, label: v.name }))}
              />
            </Form.Item>
            <Form.Item name="template_id" label={t('oneTouch.template')}>
              <Select
                allowClear
                style={{ width: 220 }}
                placeholder={t('oneTouch.templateNone')}
                data-testid="one-touch-template"
                options={(templates.data?.rows ?? []).map((x) => ({ value: x.id, label: `${x.category_name} · ${x.name}` }))}
              />
            </Form.Item>
          </Space>
          {kind === 'image' ? (
            <Form.Item name="group_ids" label={t('oneTouch.categories')} extra={t('oneTouch.categoriesTip')}>
              <Select
                mode="multiple"
                allowClear
                placeholder={t('oneTouch.categoriesAuto')}
                data-testid="one-touch-categories"
                options={(categories.data?.rows ?? []).map((c) => ({ value: c.id, label: c.name }))}
              />
            </Form.Item>
          ) : (
            <Form.Item name="group_ids" label={t('oneTouch.groups')} extra={t('oneTouch.groupsTip')}>
              <Select
                mode="multiple"
                allowClear
                placeholder={t('oneTouch.groupsAuto')}
                data-testid="one-touch-groups"
                options={(groups.data?.rows ?? []).map((g) => ({ value: g.id, label: `${g.name} (${g.ready})`, disabled: g.ready === 0 }))}
              />
            </Form.Item>
          )}
          <Button type="primary" loading={submitting.isPending} onClick={() => void submit()} data-testid="one-touch-submit">
            {t('oneTouch.submit')}
          </Button>
        </Form>
      </Card>
      <Typography.Title level={5}>{t('oneTouch.jobs')}</Typography.Title>
      <Tabs
        activeKey={tab}
        onChange={(k) => setTab(k as OneTouchKind)}
        data-testid="one-touch-tabs"
        items={[
          { key: 'video', label: <span data-testid="one-touch-tab-video">{t('oneTouch.videoProjects')}</span> },
          { key: 'image', label: <span data-testid="one-touch-tab-image">{t('oneTouch.imageProjects')}</span> },
        ]}
      />
      {rows.length === 0 && !jobs.isLoading ? <Empty description={t('oneTouch.noJobs')} /> : null}
      <Space direction="vertical" style={{ width: '100%' }}>
        {rows.map((job) => (
          <JobCard key={job.id} job={job} />
        ))}
      </Space>
    </div>
  );
}
