/**
 * /intellect (Administrator, internal testing) — AI smart editing (docs/api-clip.md "AI smart
 * editing"): pick a merchant's long video, the length range and how many shorts; the `clip.intellect`
 * job analyses it (speech, scene changes, silences), picks the best segments and cuts them into the
 * chosen video group. The list polls while a run is working; each run shows its segments on a
 * timeline of the long video (click one to play it) and the shorts.
 */
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Empty, Form, InputNumber, Progress, Select, Space, Steps, Tag, Tooltip, Typography } from 'antd';
import { useRef, useState } from 'react';
import {
  addIntellectRun,
  deleteIntellectRun,
  fetchIntellectRuns,
  fetchIntellectSources,
  fetchMerchantOptions,
  retryIntellectRun,
  type IntellectReq,
  type IntellectRun,
  type IntellectSegment,
} from '@/api/clip/intellect';
import { clipKeys } from '@/api/clip';
import { useWrite } from '@/api/mutations';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { showSubmitError } from '@/utils/submitError';
import { useClipT } from '../i18n';
import '../clip.css';

const STEPS = ['analyse', 'pick', 'cut'] as const;
const FIELDS = ['merchant_id', 'resource_id', 'group_id', 'min_seconds', 'max_seconds', 'count', 'lang'] as const;

/** `m:ss.s` */
export function clock(ms: number): string {
  const s = ms / 1000;
  const m = Math.floor(s / 60);
  return `${m}:${(s - m * 60).toFixed(1).padStart(4, '0')}`;
}

/** The segments as bars over the long video's length; a click plays that part. */
function Timeline({ run, onPlay }: { run: IntellectRun; onPlay: (s: IntellectSegment) => void }) {
  const { t } = useClipT();
  const total = run.source?.duration_ms || Math.max(1, ...run.segments.map((s) => s.end_ms));
  return (
    <div className="intellect-timeline" data-testid={`intellect-timeline-${run.id}`} style={{ position: 'relative', height: 28, background: '#f0f0f0', borderRadius: 4, margin: '8px 0' }}>
      {run.segments.map((s, i) => (
        <Tooltip key={i} title={`${clock(s.start_ms)}–${clock(s.end_ms)} · ${t('intellect.score')} ${s.score}`}>
          <button
            type="button"
            aria-label={`${clock(s.start_ms)}–${clock(s.end_ms)}`}
            data-testid={`intellect-bar-${run.id}-${i}`}
            onClick={() => onPlay(s)}
            style={{
              position: 'absolute',
              left: `${(100 * s.start_ms) / total}%`,
              width: `${Math.max(0.5, (100 * (s.end_ms - s.start_ms)) / total)}%`,
              top: 2,
              bottom: 2,
              border: 0,
              borderRadius: 3,
              cursor: 'pointer',
              background: `hsl(${120 * (s.score / 100)}, 60%, 45%)`,
            }}
          />
        </Tooltip>
      ))}
    </div>
  );
}

function RunCard({ run }: { run: IntellectRun }) {
  const { t } = useClipT();
  // each action on a run marks the runs stale
  const write = useWrite((call: () => Promise<unknown>) => call(), clipKeys.intellect);
  const player = useRef<HTMLVideoElement>(null);
  const [playing, setPlaying] = useState<IntellectSegment | null>(null);
  const current = STEPS.indexOf(run.step);
  const play = (s: IntellectSegment) => {
    setPlaying(s);
    const v = player.current;
    if (!v) return;
    v.currentTime = s.start_ms / 1000;
    void v.play?.()?.catch(() => undefined);
  };
  // Stop at the segment's end: the player shows the long video.
  const onTime = () => {
    const v = player.current;
    if (v && playing && v.currentTime * 1000 >= playing.end_ms) {
      v.pause();
      setPlaying(null);
    }
  };
  const act = (f: () => Promise<unknown>) => write.mutateAsync(f);
  return (
    <Card
      size="small"
      data-testid={`intellect-run-${run.id}`}
      data-state={run.state}
      title={
        <Space wrap>
          <span>{run.name}</span>
          <Typography.Text type="secondary">
            {run.merchant_name} → {run.group_name ?? `#${run.group_id}`}
          </Typography.Text>
          <Tag color={run.state === 'done' ? 'success' : run.state === 'failed' ? 'error' : 'processing'} data-testid={`intellect-state-${run.id}`}>
            {t(`intellect.state.${run.state}`)}
          </Tag>
        </Space>
      }
      extra={
        <Space>
          {run.state === 'failed' ? (
            <Button size="small" onClick={() => void act(() => retryIntellectRun(run.id))} data-testid={`intellect-retry-${run.id}`}>
              {t('intellect.retry')}
            </Button>
          ) : null}
          {run.state !== 'running' ? (
            <Button size="small" danger onClick={() => void act(() => deleteIntellectRun(run.id))} data-testid={`intellect-delete-${run.id}`}>
              {t('intellect.delete')}
            </Button>
          ) : null}
        </Space>
      }
    >
      <Typography.Text type="secondary">
        {t('intellect.settings', { min: run.min_seconds, max: run.max_seconds, count: run.count })}
        {run.points > 0 ? ` · ${t('intellect.charged', { points: run.points })}` : ''}
      </Typography.Text>
      <Steps
        size="small"
        current={current < 0 ? 0 : current}
        status={run.state === 'failed' ? 'error' : run.state === 'done' ? 'finish' : 'process'}
        items={STEPS.map((s) => ({ title: t(`intellect.steps.${s}`) }))}
        style={{ margin: '8px 0' }}
      />
      <Progress
        percent={run.progress}
        format={(p) => `${p}%`}
        status={run.state === 'failed' ? 'exception' : run.state === 'done' ? 'success' : 'active'}
        data-testid={`intellect-progress-${run.id}`}
      />
      {run.reason ? (
        <Typography.Text type="danger" data-testid={`intellect-reason-${run.id}`}>
          {run.reason}
        </Typography.Text>
      ) : null}
      {run.segments.length ? (
        <>
          <Timeline run={run} onPlay={play} />
          {run.source ? (
            <video ref={player} src={run.source.src} controls preload="none" onTimeUpdate={onTime} style={{ width: 180, maxHeight: 320, background: '#000' }} data-testid={`intellect-player-${run.id}`} />
          ) : null}
          <ol style={{ paddingInlineStart: 20 }} data-testid={`intellect-segments-${run.id}`}>
            {run.segments.map((s, i) => (
              <li key={i} data-testid={`intellect-segment-${run.id}-${i}`} style={{ marginBottom: 6 }}>
                <Space wrap>
                  <Button size="small" onClick={() => play(s)} data-testid={`intellect-play-${run.id}-${i}`}>
                    ▶ {clock(s.start_ms)}–{clock(s.end_ms)}
                  </Button>
                  <Tag>{t('intellect.score')} {s.score}</Tag>
                  <Tag>{t('intellect.speech', { pct: Math.round((100 * s.speech_ms) / Math.max(1, s.end_ms - s.start_ms)) })}</Tag>
                  <Typography.Text type="secondary">
                    {t(`intellect.edge.${s.start_on}`)} → {t(`intellect.edge.${s.end_on}`)}
                  </Typography.Text>
                  {s.short ? (
                    <a href={s.short.src} target="_blank" rel="noreferrer" data-testid={`intellect-short-${run.id}-${i}`}>
                      {t('intellect.short')}: {s.short.name}
                    </a>
                  ) : (
                    <Tag>{t('intellect.notCut')}</Tag>
                  )}
                </Space>
                {s.transcript ? <div style={{ color: '#666' }}>{s.transcript}</div> : null}
              </li>
            ))}
          </ol>
        </>
      ) : null}
    </Card>
  );
}

export default function IntellectPage() {
  const { t } = useClipT();
  const [form] = Form.useForm<IntellectReq>();
  const merchantId = Form.useWatch('merchant_id', form);
  const resourceId = Form.useWatch('resource_id', form);
  const submitting = useWrite(addIntellectRun, clipKeys.intellect);
  const merchants = useQuery({ queryKey: [...clipKeys.intellect, 'merchants'], queryFn: fetchMerchantOptions });
  const sources = useQuery({
    queryKey: [...clipKeys.intellect, 'sources', merchantId],
    queryFn: () => fetchIntellectSources(merchantId),
    enabled: !!merchantId,
  });
  const runs = useQuery({
    queryKey: [...clipKeys.intellect, 'runs'],
    queryFn: () => fetchIntellectRuns(),
    // Poll while a run works: its step and progress move on the server.
    refetchInterval: (q) => (q.state.data?.rows.some((r) => r.state === 'running') ? 1500 : false),
  });
  const video = sources.data?.videos.find((v) => v.id === resourceId);

  const submit = async () => {
    const v = await form.validateFields();
    try {
      await submitting.mutateAsync(v);
      feedback.success(t('intellect.queued'));
    } catch (e) {
      showSubmitError(form, e, FIELDS);
    }
  };

  const rows = runs.data?.rows ?? [];
  return (
    <div data-testid="intellect-page">
      <PageHeader title={t('common:menu.intellect')} subTitle={t('intellect.subTitle')} />
      <Card size="small" style={{ marginBottom: 16 }}>
        <Form form={form} layout="vertical" initialValues={{ min_seconds: 15, max_seconds: 60, count: 5, lang: 'zh' }}>
          <Space wrap align="start" size={16}>
            <Form.Item name="merchant_id" label={t('intellect.merchant')} rules={[{ required: true, message: t('intellect.required') }]}>
              <Select
                showSearch
                optionFilterProp="label"
                style={{ width: 220 }}
                data-testid="intellect-merchant"
                onChange={() => form.setFieldsValue({ resource_id: undefined, group_id: undefined })}
                options={(merchants.data?.rows ?? []).map((m) => ({ value: m.id, label: `${m.name} (${m.username})` }))}
              />
            </Form.Item>
            <Form.Item
              name="resource_id"
              label={t('intellect.video')}
              rules={[{ required: true, message: t('intellect.required') }]}
              extra={video ? (video.points > 0 ? t('intellect.costs', { points: video.points }) : t('intellect.free')) : undefined}
            >
              <Select
                showSearch
                optionFilterProp="label"
                style={{ width: 300 }}
                data-testid="intellect-video"
                disabled={!merchantId}
                options={(sources.data?.videos ?? []).map((v) => ({ value: v.id, label: `${v.name} (${clock(v.duration_ms)})` }))}
              />
            </Form.Item>
            <Form.Item name="group_id" label={t('intellect.group')} rules={[{ required: true, message: t('intellect.required') }]}>
              <Select
                style={{ width: 200 }}
                data-testid="intellect-group"
                disabled={!merchantId}
                options={(sources.data?.groups ?? []).map((g) => ({ value: g.id, label: g.name }))}
              />
            </Form.Item>
          </Space>
          <Space wrap align="start" size={16}>
            <Form.Item name="min_seconds" label={t('intellect.minSeconds')}>
              <InputNumber min={5} max={300} precision={0} data-testid="intellect-min" />
            </Form.Item>
            <Form.Item name="max_seconds" label={t('intellect.maxSeconds')}>
              <InputNumber min={5} max={300} precision={0} data-testid="intellect-max" />
            </Form.Item>
            <Form.Item name="count" label={t('intellect.count')}>
              <InputNumber min={1} max={20} precision={0} data-testid="intellect-count" />
            </Form.Item>
            <Form.Item name="lang" label={t('intellect.lang')} extra={t('intellect.langTip')}>
              <Select
                style={{ width: 140 }}
                data-testid="intellect-lang"
                options={[
                  { value: 'zh', label: t('intellect.langs.zh') },
                  { value: 'en', label: t('intellect.langs.en') },
                ]}
              />
            </Form.Item>
          </Space>
          <div>
            <Button type="primary" loading={submitting.isPending} onClick={() => void submit()} data-testid="intellect-submit">
              {t('intellect.submit')}
            </Button>
          </div>
        </Form>
      </Card>
      <Typography.Title level={5}>{t('intellect.runs')}</Typography.Title>
      {rows.length === 0 && !runs.isLoading ? <Empty description={t('intellect.noRuns')} /> : null}
      <Space direction="vertical" style={{ width: '100%' }}>
        {rows.map((run) => (
          <RunCard key={run.id} run={run} />
        ))}
      </Space>
    </div>
  );
}
