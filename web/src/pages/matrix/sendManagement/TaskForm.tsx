/**
 * "New release task" (docs/api-matrix.md "Release tasks"): a drawer with four steps — platform and
 * accounts, videos, content, schedule — that previews the distribution plan (`*_add` with
 * `preview: true`) and creates the task (then under review). The SPEC §5 rules are checked here as
 * the server checks them; a 422 from the server is shown at the field it names.
 */
import { ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, DatePicker, Divider, Drawer, Form, Input, InputNumber, Radio, Select, Space, Steps, Tag, TimePicker, Typography } from 'antd';
import type { Dayjs } from 'dayjs';
import { lazy, Suspense, useCallback, useEffect, useMemo, useState } from 'react';
import { addAtUser, fetchAtUsers, fetchForwardConfig, fetchMiniPrograms, matrixKeys, PLATFORMS, randomTitles, randomTopics, searchPublishPoi, submitTask } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { ContentDeclaration, Plan, Task, TaskPlatform } from '@/api/matrix/types';
import { RequestError } from '@/api/request';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import {
  appendTitles,
  capacity,
  checkTitles,
  commentLines,
  commentProblems,
  COMMENT_MAX,
  COMMENT_PICK,
  countProblem,
  DAYS_MAX,
  DECLARATIONS,
  emptyTaskForm,
  formFieldOf,
  MOUNT_TYPES,
  NAME_MAX,
  NOTE_IMAGES_MAX,
  NOTE_IMAGES_MIN,
  NOTE_PLATFORMS,
  noteCount,
  noteProblem,
  PER_ACCOUNT_DAY,
  stepOf,
  timesNeeded,
  timesProblem,
  TIME_MODES,
  TITLE_MAX,
  toTaskReq,
  type TaskFormValues,
} from '../rules';
import { usePoiSearch } from '../shared/usePoiSearch';
import AccountPicker from './AccountPicker';
import { takeReleaseTitles, takeReleaseTopics } from './handoff';
import { useDiscardGuard } from '@/components/ModalForm';
import CopyCheckHints from '@/components/CopyCheck';
import TimeZoneNote from '@/components/TimeZoneNote';
import WriterTag, { type WriterSource } from '@/components/WriterTag';
import PlanView from './PlanView';
import VideoPicker from './VideoPicker';
import { NoteFrames, NoteImagePicker } from './NotePicker';
import DeclarationPreview from './DeclarationPreview';

/** The SEO title engine's dialog, loaded (with the SEO texts) only when it is opened. */
const GenerateTitlesDialog = lazy(() => import('@/pages/seo/shared/GenerateTitlesDialog'));

const STEP_FIELDS: Array<Array<keyof TaskFormValues | (string | number)[]>> = [
  ['name', 'platform', 'account_ids'],
  ['kind', 'video_keys', 'image_ids', 'frames_video', 'frames_count'],
  [
    'titles',
    'topics',
    'top_comments',
    'at_users',
    'mount_type',
    'declaration',
    'province',
    'city',
    'merchant_abbr',
    'poi_id',
    'mini_app_id',
    'mini_app_title',
    'mini_app_url',
    'official_title',
    'official_url',
    'product_id',
  ],
  ['time_mode', 'start_date', 'daily_quantity', 'days', 'times', 'publish_count', 'refuse_duplicates'],
];

function TimesInput({ count, value = [], onChange }: { count: number; value?: Array<Dayjs | null | undefined>; onChange?: (v: Array<Dayjs | null>) => void }) {
  return (
    <Space wrap>
      {Array.from({ length: count }, (_, i) => (
        <TimePicker
          key={i}
          format="HH:mm"
          minuteStep={1}
          needConfirm={false}
          value={value[i] ?? null}
          onChange={(v) => {
            const next = Array.from({ length: count }, (_, j) => (j === i ? v : (value[j] ?? null)));
            onChange?.(next);
          }}
          data-testid={`task-time-${i}`}
        />
      ))}
    </Space>
  );
}

export interface TaskFormProps {
  open: boolean;
  onClose: () => void;
  onCreated: (task: Task, plan: Plan) => void;
}

export default function TaskForm({ open, onClose, onCreated }: TaskFormProps) {
  const { t } = useMatrixT();
  const [form] = Form.useForm<TaskFormValues>();
  const [step, setStep] = useState(0);
  const [plan, setPlan] = useState<Plan | null>(null);
  type Req = Parameters<typeof submitTask>[1];
  // a preview stores nothing; a created task marks the area stale (the task list reads again)
  const previewing = useWrite(({ platform, req }: { platform: TaskPlatform; req: Req & { preview: true } }) => submitTask(platform, req));
  const creating = useWrite(({ platform, req }: { platform: TaskPlatform; req: Req }) => submitTask(platform, req), matrixKeys.all);
  const [error, setError] = useState<string | null>(null);
  const [randomizing, setRandomizing] = useState<'titles' | 'topics' | null>(null);
  const [wrote, setWrote] = useState<{ titles?: WriterSource; topics?: WriterSource }>({});
  /** Titles handed over by another page (handoff.ts) and filled in. */
  const [handedCount, setHandedCount] = useState(0);
  /** Topics handed over by the hot lists. */
  const [handedTopics, setHandedTopics] = useState(0);
  const [generating, setGenerating] = useState(false);

  // Esc, the mask or Cancel on a filled wizard asks before throwing it away
  const guard = useDiscardGuard({ form, open, onClose });
  const initial = useMemo(() => emptyTaskForm(), []);
  useEffect(() => {
    if (!open) return;
    form.resetFields();
    const handed = takeReleaseTitles();
    const topics = takeReleaseTopics();
    form.setFieldsValue({ ...emptyTaskForm(), titles: appendTitles('', handed), ...(topics.length ? { topics } : {}) });
    setHandedCount(handed.length);
    setHandedTopics(topics.length);
    setStep(0);
    setPlan(null);
    setError(null);
  }, [open, form]);

  const platform = (Form.useWatch('platform', form) ?? initial.platform) as TaskPlatform;
  const accountIds = (Form.useWatch('account_ids', form) ?? []) as number[];
  const videoKeys = (Form.useWatch('video_keys', form) ?? []) as string[];
  const kind = (Form.useWatch('kind', form) ?? 'video') as TaskFormValues['kind'];
  const note = kind === 'image_note';
  const imageIds = (Form.useWatch('image_ids', form) ?? []) as number[];
  const framesVideo = Form.useWatch('frames_video', form) as number | null | undefined;
  const framesCount = Form.useWatch('frames_count', form) as number | null | undefined;
  const pictures = noteCount({ image_ids: imageIds, frames_video: framesVideo, frames_count: framesCount });
  // An image note is posted once on each account; videos are shared out among them.
  const posts = note ? accountIds.length : videoKeys.length;
  const declaration = (Form.useWatch('declaration', form) ?? 'auto') as ContentDeclaration;
  // Which listed videos the product generated any part of (the declaration preview resolves `auto` by it).
  const [generated, setGenerated] = useState<Record<string, boolean>>({});
  const seen = useCallback((g: Record<string, boolean>) => setGenerated((was) => ({ ...was, ...g })), []);
  const titles = Form.useWatch('titles', form) as string | undefined;
  const comments = Form.useWatch('top_comments', form) as string | undefined;
  const mountType = Form.useWatch('mount_type', form) ?? 'none';
  const timeMode = Form.useWatch('time_mode', form) ?? 'random';
  const daily = (Form.useWatch('daily_quantity', form) ?? 1) as number;
  const days = (Form.useWatch('days', form) ?? 1) as number;
  const publishCount = Form.useWatch('publish_count', form) as number | null | undefined;
  const city = Form.useWatch('city', form) as string | undefined;
  const poiName = Form.useWatch('poi_name', form) as string | undefined;

  const single = platform !== 'mixed' ? platform : undefined;
  // The copy precheck's platforms: the task's one, or every platform's rules for a mixed task.
  const copyScope = useMemo(() => (single ? [single] : []), [single]);
  const config = useQuery({ queryKey: ['matrix', 'forwardConfig', single], queryFn: () => fetchForwardConfig(single!), enabled: open && Boolean(single), retry: false });
  const atUsers = useQuery({ queryKey: ['matrix', 'atUsers', single ?? 'all'], queryFn: () => fetchAtUsers(single), enabled: open });
  const minis = useQuery({ queryKey: ['matrix', 'miniPrograms'], queryFn: fetchMiniPrograms, enabled: open && mountType === 'mini_program' });
  const poi = usePoiSearch(searchPublishPoi, city);
  const limits = config.data?.limits;
  const titleMax = limits?.title_max ?? TITLE_MAX;
  const topicsMax = limits?.topics_max ?? undefined;
  const commentMax = limits?.comment_max ?? COMMENT_MAX;
  const perDay = limits?.per_account_day ?? PER_ACCOUNT_DAY;
  const mountTypes = config.data?.mount_types?.length ? MOUNT_TYPES.filter((m) => m === 'none' || config.data!.mount_types.includes(m)) : MOUNT_TYPES;

  // the plan is stale as soon as something changes
  const onValuesChange = (changed?: Partial<TaskFormValues>) => {
    if (plan) setPlan(null);
    if (error) setError(null);
    // "accounts ≤ videos" follows the accounts, but the videos' errors wait until they were touched
    if (changed && 'account_ids' in changed && (form.isFieldTouched('video_keys') || form.getFieldError('video_keys').length))
      void form.validateFields(['video_keys']).catch(() => undefined);
  };

  const titleChecks = checkTitles(titles, titleMax);
  const problems = commentProblems(comments, commentMax);
  const countIssue = countProblem(accountIds.length, posts, note ? null : publishCount);
  const cap = capacity(accountIds.length, daily, days);
  const needTimes = timesNeeded(timeMode, daily);

  const problemText = (p: (typeof problems)[number]) =>
    p.kind === 'tooLong' ? t('rules.commentTooLong', { line: p.line, length: p.length, max: commentMax }) : t('rules.commentContact', { line: p.line, kind: t(`rules.contact.${p.kind}`) });

  const validateStep = async (i: number) => {
    try {
      await form.validateFields(STEP_FIELDS[i] as never);
      return true;
    } catch {
      feedback.warning(t('common:validation.formFailed'));
      return false;
    }
  };
  const validateAll = async () => {
    for (let i = 0; i < STEP_FIELDS.length; i += 1) {
      try {
        await form.validateFields(STEP_FIELDS[i] as never);
      } catch {
        setStep(i);
        feedback.warning(t('common:validation.formFailed'));
        return false;
      }
    }
    return true;
  };

  const showServerError = (e: unknown) => {
    if (e instanceof RequestError && e.field === 'plan') {
      // The approved plan cannot be kept (a time passed, a minute was taken): show the new one to confirm.
      setError(e.message);
      void submitTask(platform, toTaskReq(values(), true) as ReturnType<typeof toTaskReq> & { preview: true }).then(setPlan, () => setPlan(null));
      return;
    }
    if (e instanceof RequestError && e.field) {
      const field = formFieldOf(e.field);
      setStep(stepOf(e.field));
      form.setFields([{ name: field as never, errors: [e.message] }]);
      setError(null);
      return;
    }
    setError(e instanceof Error ? e.message : String(e));
  };

  const values = () => ({ ...emptyTaskForm(), ...form.getFieldsValue(true) }) as TaskFormValues;

  const preview = async () => {
    if (!(await validateAll())) return;
    setError(null);
    try {
      setPlan(await previewing.mutateAsync({ platform, req: toTaskReq(values(), true) as ReturnType<typeof toTaskReq> & { preview: true } }));
    } catch (e) {
      showServerError(e);
    }
  };

  const create = async () => {
    if (!(await validateAll())) return;
    setError(null);
    try {
      // Confirm the plan that was shown: the server stores exactly these posts or refuses (`plan`).
      const req = toTaskReq(values());
      if (plan?.seed) {
        req.seed = plan.seed;
        req.planned_at = plan.planned_at;
        req.approved = plan.items.map(({ account_id, video_key, at }) => ({ account_id, video_key, at }));
      }
      const res = await creating.mutateAsync({ platform, req });
      // Nicknames typed in for a single-platform task join that platform's @-user list.
      const known = new Set((atUsers.data?.rows ?? []).map((u) => u.nickname));
      if (single) for (const n of (req.at_users ?? []).filter((n) => !known.has(n))) void addAtUser(single, n).catch(() => undefined);
      onCreated(res.task, res.plan);
    } catch (e) {
      showServerError(e);
    }
  };

  const addRandom = async (kind: 'titles' | 'topics') => {
    setRandomizing(kind);
    try {
      if (kind === 'titles') {
        const res = await randomTitles(5);
        setWrote((w) => ({ ...w, titles: res.source }));
        if (!res.rows?.length) feedback.warning(t('form.noTradeWords'));
        form.setFieldsValue({ titles: appendTitles(form.getFieldValue('titles'), res.rows ?? []) });
        void form.validateFields(['titles']);
      } else {
        const res = await randomTopics(5);
        setWrote((w) => ({ ...w, topics: res.source }));
        if (!res.rows?.length) feedback.warning(t('form.noTradeWords'));
        const have: string[] = form.getFieldValue('topics') ?? [];
        form.setFieldsValue({ topics: [...new Set([...have, ...(res.rows ?? []).map((s) => s.replace(/^#/, '').trim()).filter(Boolean)])] });
        void form.validateFields(['topics']);
      }
      onValuesChange();
    } catch {
      /* toasted */
    } finally {
      setRandomizing(null);
    }
  };

  const pane = (i: number) => ({ style: { display: step === i ? 'block' : 'none' }, 'data-testid': `task-step-${i}` });
  const last = STEP_FIELDS.length - 1;
  const miniOptions = (minis.data?.rows ?? []).map((m) => ({ value: m.mini_app_id, label: `${m.title} (${m.mini_app_id})`, mini: m }));

  return (
    <Drawer
      open={open}
      onClose={guard.requestClose}
      title={t('form.title')}
      size={980}
      destroyOnHidden
      data-testid="task-form"
      footer={
        <Space style={{ display: 'flex', justifyContent: 'space-between', width: '100%' }}>
          <Button onClick={guard.requestClose} data-testid="task-cancel">
            {t('common:cancel')}
          </Button>
          <Space>
            <Button disabled={step === 0} onClick={() => setStep((s) => s - 1)} data-testid="step-prev">
              {t('form.prev')}
            </Button>
            {step < last ? (
              <Button type="primary" onClick={async () => (await validateStep(step)) && setStep((s) => s + 1)} data-testid="step-next">
                {t('form.next')}
              </Button>
            ) : (
              <>
                <Button loading={previewing.isPending} disabled={creating.isPending} onClick={() => void preview()} data-testid="plan-preview">
                  {t('form.preview')}
                </Button>
                <Button type="primary" loading={creating.isPending} disabled={previewing.isPending} onClick={() => void create()} data-testid="task-confirm">
                  {t('form.confirm')}
                </Button>
              </>
            )}
          </Space>
        </Space>
      }
    >
      <Steps
        current={step}
        size="small"
        onChange={async (next) => {
          if (next < step || (await validateStep(step))) setStep(next);
        }}
        items={[{ title: t('form.stepAccounts') }, { title: t('form.stepVideos') }, { title: t('form.stepContent') }, { title: t('form.stepSchedule') }]}
      />
      {handedTopics ? (
        <Alert type="info" showIcon closable title={t('form.handedTopics', { count: handedTopics })} style={{ marginTop: 12 }} onClose={() => setHandedTopics(0)} data-testid="task-handed-topics" />
      ) : null}
      {handedCount ? (
        <Alert type="info" showIcon closable title={t('form.handedTitles', { count: handedCount })} style={{ marginTop: 12 }} onClose={() => setHandedCount(0)} data-testid="task-handed-titles" />
      ) : null}
      {config.data?.sandbox ? <Alert type="warning" showIcon title={t('auth.sandbox')} style={{ marginTop: 12 }} data-testid="task-sandbox" /> : null}
      <Form<TaskFormValues>
        form={form}
        layout="vertical"
        initialValues={initial}
        onValuesChange={onValuesChange}
        className="cm-task-steps-body"
        data-testid="task-form-body"
        {...guard.captureProps}
      >
        {/* 1: platform and accounts */}
        <div {...pane(0)}>
          <Form.Item name="name" label={t('task.name')} rules={[{ required: true, whitespace: true, message: t('rules.nameRequired') }, { max: NAME_MAX, message: t('rules.nameTooLong', { max: NAME_MAX }) }]}>
            <Input maxLength={NAME_MAX} showCount placeholder={t('form.namePlaceholder')} data-testid="task-name" />
          </Form.Item>
          <Form.Item name="platform" label={t('task.platform')} rules={[{ required: true }]}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              data-testid="task-platform"
              options={[...PLATFORMS, 'mixed' as const].map((p) => ({ value: p, label: <span data-testid={`task-platform-${p}`}>{t(`platform.${p}`)}</span> }))}
              onChange={() => form.setFieldsValue({ account_ids: [], at_users: [] })}
            />
          </Form.Item>
          <Form.Item
            name="account_ids"
            label={t('form.accounts')}
            extra={t('form.accountsHelp')}
            rules={[{ validator: async (_, v: number[] | undefined) => (v?.length ? undefined : Promise.reject(new Error(t('rules.accountsRequired')))) }]}
          >
            <AccountPicker platform={platform} />
          </Form.Item>
        </div>

        {/* 2: videos or an image note */}
        <div {...pane(1)}>
          <Form.Item name="kind" label={t('note.kind')}>
            <Radio.Group
              optionType="button"
              buttonStyle="solid"
              data-testid="task-kind"
              options={(['video', 'image_note'] as const).map((k) => ({ value: k, label: <span data-testid={`task-kind-${k}`}>{t(`note.kinds.${k}`)}</span> }))}
            />
          </Form.Item>
          {note && !NOTE_PLATFORMS.includes(platform) ? (
            <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('note.platformRefused', { platform: t(`platform.${platform}`) })} data-testid="note-platform-refused" />
          ) : null}
          <Form.Item
            name="image_ids"
            hidden={!note}
            label={t('note.images', { count: pictures, max: NOTE_IMAGES_MAX })}
            extra={t('note.imagesHelp', { min: NOTE_IMAGES_MIN, max: NOTE_IMAGES_MAX })}
            dependencies={['kind', 'frames_video', 'frames_count']}
            rules={[
              {
                validator: async (_, v: number[] | undefined) => {
                  if (form.getFieldValue('kind') !== 'image_note') return;
                  const n = noteCount({ image_ids: v ?? [], frames_video: form.getFieldValue('frames_video'), frames_count: form.getFieldValue('frames_count') });
                  const p = noteProblem(n);
                  if (p) throw new Error(t(`note.${p}`, { count: n, min: NOTE_IMAGES_MIN, max: NOTE_IMAGES_MAX }));
                },
              },
            ]}
          >
            <NoteImagePicker active={note} />
          </Form.Item>
          {note ? <NoteFrames /> : null}
          <Form.Item
            name="video_keys"
            hidden={note}
            label={t('form.videos')}
            dependencies={['kind']}
            rules={[
              {
                validator: async (_, v: string[] | undefined) => {
                  if (form.getFieldValue('kind') === 'image_note') return;
                  const n = v?.length ?? 0;
                  if (!n) throw new Error(t('rules.videosRequired'));
                  const accounts = (form.getFieldValue('account_ids') ?? []).length;
                  if (accounts > n) throw new Error(t('rules.accountsOverVideos', { accounts, videos: n }));
                },
              },
            ]}
          >
            <VideoPicker onSeen={seen} />
          </Form.Item>
        </div>

        {/* 3: content */}
        <div {...pane(2)}>
          <Form.Item
            label={
              <Space>
                {t('form.titles')}
                <Button size="small" icon={<ThunderboltOutlined />} loading={randomizing === 'titles'} onClick={() => void addRandom('titles')} data-testid="titles-random">
                  {t('form.randomTitles')}
                </Button>
                <WriterTag source={wrote.titles} testId="titles-writer" />
                <Button size="small" icon={<ThunderboltOutlined />} onClick={() => setGenerating(true)} data-testid="titles-generate">
                  {t('form.generateTitles')}
                </Button>
              </Space>
            }
            required
            extra={
              <div>
                <div>{t('form.titlesHelp', { max: titleMax })}</div>
                <div className="cm-title-checks" data-testid="title-checks">
                  {titleChecks.map((c) => (
                    <Tag key={c.index} color={c.tooLong ? 'error' : 'default'} data-testid={`title-count-${c.index}`} data-length={c.length}>
                      {c.index}. {c.title.length > 12 ? `${Array.from(c.title).slice(0, 12).join('')}…` : c.title} {c.length}/{titleMax}
                    </Tag>
                  ))}
                </div>
                <CopyCheckHints
                  text={titles}
                  platforms={copyScope}
                  testId="titles-copy-check"
                  onApply={(next) => {
                    form.setFieldsValue({ titles: next });
                    void form.validateFields(['titles']);
                  }}
                />
              </div>
            }
          >
            <Form.Item
              name="titles"
              noStyle
              rules={[
                {
                  validator: async (_, v: string | undefined) => {
                    const checks = checkTitles(v, titleMax);
                    if (!checks.length) throw new Error(t('rules.titlesRequired'));
                    const bad = checks.filter((c) => c.tooLong);
                    if (bad.length) throw new Error(bad.map((c) => t('rules.titleTooLong', { index: c.index, length: c.length, max: titleMax })).join('; '));
                  },
                },
              ]}
            >
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 5 }} placeholder={t('form.titlesPlaceholder')} data-testid="task-titles" />
            </Form.Item>
          </Form.Item>
          <Form.Item
            label={
              <Space>
                {t('form.topics')}
                <Button size="small" icon={<ThunderboltOutlined />} loading={randomizing === 'topics'} onClick={() => void addRandom('topics')} data-testid="topics-random">
                  {t('form.randomTopics')}
                </Button>
                <WriterTag source={wrote.topics} testId="topics-writer" />
              </Space>
            }
            required
          >
            <Form.Item
              name="topics"
              noStyle
              rules={[
                { type: 'array', required: true, min: 1, message: t('rules.topicsRequired') },
                ...(topicsMax ? [{ type: 'array' as const, max: topicsMax, message: t('rules.topicsTooMany', { platform: t(`platform.${platform}`), max: topicsMax }) }] : []),
              ]}
            >
              <Select mode="tags" tokenSeparators={[',', '，', ' ', '#']} open={false} suffixIcon={null} placeholder={t('form.topicsPlaceholder')} data-testid="task-topics" />
            </Form.Item>
            {single && limits && (limits.topics_max || limits.title_max < TITLE_MAX) ? (
              <Typography.Text type="secondary" style={{ display: 'block', marginTop: 4 }} data-testid="platform-limits" title={limits.sources}>
                {t('form.platformLimits', { platform: t(`platform.${single}`), title: limits.title_max, topics: limits.topics_max ?? '—' })}
              </Typography.Text>
            ) : null}
          </Form.Item>
          <Form.Item
            name="top_comments"
            label={t('form.comments')}
            extra={
              <div>
                <div>{t('form.commentsHelp', { max: commentMax, pick: limits?.comment_pick ?? COMMENT_PICK, count: commentLines(comments).length })}</div>
                {problems.map((p) => (
                  <div key={p.line} data-testid={`comment-problem-${p.line}`}>
                    <Typography.Text type="danger">{problemText(p)}</Typography.Text>
                  </div>
                ))}
                <CopyCheckHints text={comments} platforms={copyScope} testId="comments-copy-check" onApply={(next) => form.setFieldsValue({ top_comments: next })} />
              </div>
            }
            rules={[
              {
                validator: async (_, v: string | undefined) => {
                  const list = commentProblems(v, commentMax);
                  if (list.length) throw new Error(t('rules.commentsInvalid', { lines: list.map((p) => p.line).join(', ') }));
                },
              },
            ]}
          >
            <Input.TextArea autoSize={{ minRows: 3, maxRows: 8 }} placeholder={t('form.commentsPlaceholder')} data-testid="task-comments" />
          </Form.Item>
          <Form.Item name="at_users" label={t('form.atUsers')} extra={t('form.atUsersHelp')}>
            <Select
              mode="tags"
              allowClear
              tokenSeparators={[',', '，']}
              loading={atUsers.isFetching}
              options={(atUsers.data?.rows ?? []).map((u) => ({ value: u.nickname, label: single ? u.nickname : `${u.nickname} (${t(`platform.${u.platform}`)})` }))}
              data-testid="task-at-users"
            />
          </Form.Item>

          <Form.Item name="declaration" label={t('form.declaration')} extra={t('form.declarationHint')}>
            <Select
              style={{ width: 280 }}
              data-testid="task-declaration"
              options={DECLARATIONS.map((d) => ({ value: d, label: <span data-testid={`declaration-${d}`}>{t(`declaration.${d}`)}</span> }))}
            />
          </Form.Item>
          <Form.Item label={t('form.declarationResolved')}>
            <DeclarationPreview chosen={declaration} platform={platform} videoKeys={videoKeys} generated={generated} />
          </Form.Item>

          <Divider titlePlacement="start" plain>
            {t('form.mount')}
          </Divider>
          <Form.Item name="mount_type" label={t('form.mountType')}>
            <Radio.Group
              data-testid="mount-type"
              options={mountTypes.map((m) => ({ value: m, label: <span data-testid={`mount-${m}`}>{t(`mount.${m}`)}</span> }))}
            />
          </Form.Item>
          <Space wrap align="start">
            <Form.Item name="province" label={t('address.province')}>
              <Input style={{ width: 160 }} data-testid="task-province" />
            </Form.Item>
            <Form.Item name="city" label={t('address.city')}>
              <Input style={{ width: 160 }} data-testid="task-city" />
            </Form.Item>
            <Form.Item name="merchant_abbr" label={t('form.merchantAbbr')}>
              <Input style={{ width: 200 }} data-testid="task-merchant-abbr" />
            </Form.Item>
          </Space>
          {mountType === 'poi' ? (
            <>
              <Form.Item name="poi_id" label={t('address.poi')} rules={[{ required: true, message: t('rules.mountRequired') }]} extra={poiName ? `${poiName} · ${form.getFieldValue('poi_address') ?? ''}` : t('address.poiHelp')}>
                <Select
                  showSearch={{ filterOption: false, onSearch: poi.onSearch }}
                  allowClear
                  loading={poi.loading}
                  placeholder={t('address.poiSearch')}
                  notFoundContent={poi.loading ? undefined : t('address.poiNone')}
                  options={poi.rows.map((p) => ({ value: p.poi_id, label: `${p.poi_name} · ${p.address}`, poi: p }))}
                  onChange={(value, option) => {
                    const p = (option as { poi?: { poi_name: string; address: string; city: string; province: string } } | undefined)?.poi;
                    if (!value || !p) form.setFieldsValue({ poi_name: '', poi_address: '' });
                    else
                      form.setFieldsValue({
                        poi_name: p.poi_name,
                        poi_address: p.address,
                        city: form.getFieldValue('city') || p.city,
                        province: form.getFieldValue('province') || p.province,
                      });
                  }}
                  data-testid="task-poi"
                />
              </Form.Item>
              <Form.Item name="poi_name" hidden>
                <Input />
              </Form.Item>
              <Form.Item name="poi_address" hidden>
                <Input />
              </Form.Item>
            </>
          ) : null}
          {mountType === 'mini_program' ? (
            <Space wrap align="start">
              <Form.Item name="mini_app_id" label={t('form.miniAppId')} rules={[{ required: true, whitespace: true, message: t('rules.mountRequired') }]}>
                <Select
                  showSearch
                  style={{ width: 240 }}
                  options={miniOptions}
                  onChange={(_, option) => {
                    const m = (option as { mini?: { title: string; url: string } } | undefined)?.mini;
                    if (m) form.setFieldsValue({ mini_app_title: m.title, mini_app_url: m.url });
                  }}
                  notFoundContent={t('form.miniNone')}
                  data-testid="task-mini-pick"
                />
              </Form.Item>
              <Form.Item name="mini_app_title" label={t('form.miniAppTitle')} rules={[{ required: true, whitespace: true, message: t('rules.mountRequired') }]}>
                <Input style={{ width: 200 }} data-testid="task-mini-title" />
              </Form.Item>
              <Form.Item name="mini_app_url" label={t('form.miniAppUrl')} rules={[{ required: true, whitespace: true, message: t('rules.mountRequired') }]}>
                <Input style={{ width: 280 }} data-testid="task-mini-url" />
              </Form.Item>
            </Space>
          ) : null}
          {mountType === 'official' ? (
            <Space wrap align="start">
              <Form.Item name="official_title" label={t('form.officialTitle')} rules={[{ required: true, whitespace: true, message: t('rules.mountRequired') }]}>
                <Input style={{ width: 240 }} data-testid="task-official-title" />
              </Form.Item>
              <Form.Item name="official_url" label={t('form.officialUrl')} rules={[{ required: true, whitespace: true, message: t('rules.mountRequired') }, { type: 'url', message: t('rules.urlInvalid') }]}>
                <Input style={{ width: 320 }} placeholder="https://" data-testid="task-official-url" />
              </Form.Item>
            </Space>
          ) : null}
          {mountType === 'product' ? (
            <Form.Item name="product_id" label={t('form.productId')} rules={[{ required: true, whitespace: true, message: t('rules.mountRequired') }]}>
              <Input style={{ width: 240 }} data-testid="task-product" />
            </Form.Item>
          ) : null}
        </div>

        {/* 4: schedule */}
        <div {...pane(3)}>
          <Form.Item name="time_mode" label={t('form.timeMode')} extra={t(`form.timeModeHelp.${timeMode}`)}>
            <Radio.Group
              optionType="button"
              data-testid="task-time-mode"
              options={TIME_MODES.map((m) => ({ value: m, label: <span data-testid={`time-mode-${m}`}>{t(`timeMode.${m}`)}</span> }))}
              onChange={() => form.setFieldsValue({ times: [] })}
            />
          </Form.Item>
          <Space wrap align="start">
            <Form.Item name="start_date" label={t('form.startDate')} rules={[{ required: true, message: t('rules.startDateRequired') }]}>
              <DatePicker allowClear={false} data-testid="task-start-date" />
            </Form.Item>
            <Form.Item name="daily_quantity" label={t('form.dailyQuantity')} rules={[{ required: true, type: 'number', min: 1, max: perDay, message: t('rules.dailyRange', { max: perDay }) }]}>
              <InputNumber<number> min={1} max={perDay} precision={0} style={{ width: 120 }} data-testid="task-daily" />
            </Form.Item>
            <Form.Item name="days" label={t('form.days')} rules={[{ required: true, type: 'number', min: 1, max: DAYS_MAX, message: t('rules.daysRange', { max: DAYS_MAX }) }]}>
              <InputNumber<number> min={1} max={DAYS_MAX} precision={0} style={{ width: 120 }} data-testid="task-days" />
            </Form.Item>
            <Form.Item
              name="publish_count"
              hidden={note}
              label={t('form.publishCount')}
              extra={t('form.publishCountHelp')}
              dependencies={['video_keys']}
              rules={[
                {
                  validator: async (_, v: number | null | undefined) => {
                    const n = (form.getFieldValue('video_keys') ?? []).length;
                    if (v && v > n) throw new Error(t('rules.publishOverVideos', { count: v, videos: n }));
                  },
                },
              ]}
            >
              <InputNumber<number> min={1} precision={0} style={{ width: 140 }} placeholder={String(videoKeys.length)} data-testid="task-publish-count" />
            </Form.Item>
            <Form.Item name="refuse_duplicates" hidden={note} label={t('form.duplicates')} extra={t('form.duplicatesHelp')}>
              <Radio.Group
                optionType="button"
                options={[
                  { value: false, label: t('form.duplicatesWarn') },
                  { value: true, label: t('form.duplicatesRefuse') },
                ]}
                data-testid="task-refuse-duplicates"
              />
            </Form.Item>
          </Space>
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }} data-testid="daily-hint">
            {t('rules.perDayHint', { max: perDay })} <TimeZoneNote />
          </Typography.Paragraph>
          {needTimes ? (
            <Form.Item
              name="times"
              label={timeMode === 'timed' ? t('form.timedTime') : t('form.specifiedTimes', { count: needTimes })}
              dependencies={['daily_quantity', 'time_mode']}
              rules={[
                {
                  validator: async (_, v: Array<Dayjs | null> | undefined) => {
                    const list = (v ?? []).map((d) => (d ? d.format('HH:mm') : null));
                    const p = timesProblem(form.getFieldValue('time_mode'), form.getFieldValue('daily_quantity'), list);
                    if (p === 'missing') throw new Error(t('rules.timesMissing', { count: timesNeeded(form.getFieldValue('time_mode'), form.getFieldValue('daily_quantity')) }));
                    if (p === 'repeated') throw new Error(t('rules.timesRepeated'));
                  },
                },
              ]}
            >
              <TimesInput count={needTimes} />
            </Form.Item>
          ) : null}

          <Space orientation="vertical" style={{ width: '100%' }} data-testid="task-rules">
            <Alert
              type={countIssue ? 'error' : 'info'}
              showIcon
              data-testid="task-counts"
              data-problem={countIssue ?? ''}
              title={note ? t('note.summary', { accounts: accountIds.length, count: pictures }) : t('rules.summary', { accounts: accountIds.length, videos: videoKeys.length, capacity: cap, daily, days })}
              description={countIssue ? t(`rules.${countIssue}`, { accounts: accountIds.length, videos: posts, count: publishCount ?? 0 }) : undefined}
            />
            {!countIssue && !note && cap < (publishCount || videoKeys.length) ? (
              <Alert type="warning" showIcon data-testid="task-capacity" title={t('rules.overCapacity', { count: (publishCount || videoKeys.length) - cap, capacity: cap })} />
            ) : null}
            {error ? <Alert type="error" showIcon title={error} data-testid="task-error" /> : null}
            {plan ? <PlanView plan={plan} /> : <Typography.Text type="secondary">{t('form.previewHelp')}</Typography.Text>}
          </Space>
        </div>
      </Form>
      {generating ? (
        <Suspense fallback={null}>
          <GenerateTitlesDialog
            open
            onClose={() => setGenerating(false)}
            maxChars={titleMax}
            keywords={(form.getFieldValue('topics') as string[] | undefined) ?? []}
            onPick={(picked) => {
              form.setFieldsValue({ titles: appendTitles(form.getFieldValue('titles'), picked) });
              void form.validateFields(['titles']);
              onValuesChange();
            }}
          />
        </Suspense>
      ) : null}
    </Drawer>
  );
}
