/**
 * Create or edit a quick-mix project (ModalForm = FullscreenModal with a form): name, shot groups in
 * playing order, background music, voice-over with burnt-in subtitles, title, cover time and output
 * count. Rules: SPEC §5 "Voice and clip" and docs/api-clip.md (see ../rules.ts). `mode="senior"`
 * (advanced mode) adds each shot's start, length, caption and transition, the captions' style, and
 * saves through the advanced calls.
 */
import { InfoCircleOutlined, MinusCircleOutlined, PlusOutlined, ThunderboltOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Col, Divider, Form, Input, InputNumber, Radio, Row, Select, Slider, Space, Switch, Tag, Typography } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { clipKeys, fetchBuiltinMusic, fetchFonts, fetchMyMusic, fetchShotGroups, fetchVoices, projectCalls } from '@/api/clip';
import { useWrite } from '@/api/mutations';
import type { PickMedia, Project, ProjectMode } from '@/api/clip/types';
import { LinkedText } from '@/components/MenuLink';
import ModalForm from '@/components/ModalForm';
import { formatDuration } from '../format';
import { useClipT } from '../i18n';
import {
  charCount,
  emptyForm,
  groupsProblem,
  hasShotTexts,
  MAX_BATCH,
  MAX_SHOT_TEXT_CHARS,
  MAX_NAME_CHARS,
  MAX_TITLE_CHARS,
  MAX_TITLES,
  MAX_TRACKS,
  MIN_GROUPS,
  shotsProblem,
  toConfig,
  TRANSITION_MS_MAX,
  TRANSITION_MS_MIN,
  toForm,
  type ProjectFormValues,
} from '../rules';
import GroupPicker from './GroupPicker';
import { matchMusic, takeMixMusic, type HandedMusic } from './handoff';
import TextStyleFields from './TextStyleFields';

export interface ProjectFormProps {
  open: boolean;
  /** The project to edit; null creates one. */
  project: Project | null;
  onClose: () => void;
  onSaved: (project: Project) => void;
  /** normal = quick mix (default); senior = advanced mode. */
  mode?: ProjectMode;
}

const codePoints = (text: string) => charCount(text);
/** Every title field's counter: characters as the server counts them, input cut at the limit. */
const titleCount = { show: true, max: MAX_TITLE_CHARS, strategy: codePoints, exceedFormatter: (text: string, { max }: { max: number }) => Array.from(text).slice(0, max).join('') };

function AsrTag({ media }: { media: PickMedia }) {
  const { t } = useClipT();
  if (media.asr_state === 'success') return <Tag color="success">{t('voice.asr.success')}</Tag>;
  if (media.asr_state === 'processing') return <Tag color="processing">{t('voice.asr.processing')}</Tag>;
  return <Tag>{t('voice.asr.none')}</Tag>;
}

/** The SEO title engine's dialog, loaded (with the SEO texts) only when it is opened. */
const GenerateTitlesDialog = lazy(() => import('@/pages/seo/shared/GenerateTitlesDialog'));

export default function ProjectForm({ open, project, onClose, onSaved, mode = 'normal' }: ProjectFormProps) {
  const senior = mode === 'senior';
  const { t } = useClipT();
  const [form] = Form.useForm<ProjectFormValues>();
  const [generating, setGenerating] = useState(false);
  const titleFits = (v: string | undefined) => {
    if (codePoints(v ?? '') > MAX_TITLE_CHARS) throw new Error(t('title.tooLong', { max: MAX_TITLE_CHARS }));
  };
  const save = useWrite(({ id, name, config }: { id?: number; name: string; config: ReturnType<typeof toConfig> }) => projectCalls[mode].save(id, name, config), clipKeys.all);
  const groups = useQuery({ queryKey: ['clip', 'shotGroups'], queryFn: fetchShotGroups, enabled: open });
  const music = useQuery({ queryKey: ['clip', 'myMusic'], queryFn: fetchMyMusic, enabled: open });
  const builtin = useQuery({ queryKey: ['clip', 'builtinMusic'], queryFn: fetchBuiltinMusic, enabled: open });
  // The built-in set can be empty (an operator removed every track): say so instead of only refusing.
  const noBuiltin = builtin.isSuccess && !builtin.data?.rows?.length;
  const voices = useQuery({ queryKey: ['clip', 'voices'], queryFn: fetchVoices, enabled: open });
  const fonts = useQuery({ queryKey: ['clip', 'fonts'], queryFn: fetchFonts, enabled: open });

  // fresh lists each time the dialog opens (a group may have gained clips meanwhile)
  useEffect(() => {
    if (!open) return;
    void groups.refetch();
    void voices.refetch();
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const initialValues = useMemo(() => (project ? toForm(project) : emptyForm()), [project]);
  // A hot-list song handed over for a new project (handoff.ts): picked from the library when it is there.
  const [handed, setHanded] = useState<HandedMusic | null>(null);
  useEffect(() => {
    setHanded(open && !project ? takeMixMusic() : null);
  }, [open, project]);
  const handedTrack = handed && music.data ? matchMusic(music.data.rows ?? [], handed) : undefined;
  const handedId = handedTrack?.state === 'ready' ? handedTrack.id : undefined;
  useEffect(() => {
    if (handedId !== undefined) form.setFieldsValue({ music: { ...form.getFieldValue('music'), source: 'mine', media_ids: [handedId] } });
  }, [handedId, form]);
  const musicSource = Form.useWatch(['music', 'source'], form);
  const subtitlesOn = Form.useWatch(['subtitles', 'enabled'], form);
  const voiceIds = Form.useWatch(['voice', 'media_ids'], form);
  const shotRows = Form.useWatch('groups', form);
  const captions = senior && hasShotTexts(shotRows);
  const voiceRows = voices.data?.rows ?? [];
  // The first chosen voice-over without recognized lines (its variants would have no subtitles).
  const unrecognized = voiceRows.find((v) => (voiceIds ?? []).includes(v.id) && v.asr_state !== 'success');
  const fontRows = fonts.data?.rows ?? [];

  const submit = async (values: ProjectFormValues) => {
    const merged = { ...initialValues, ...values } as ProjectFormValues;
    const config = toConfig(merged);
    const name = merged.name.trim();
    const saved = await save.mutateAsync({ id: project?.id, name, config });
    onSaved(saved);
  };

  const mediaOption = (m: PickMedia, extra?: React.ReactNode) => ({
    value: m.id,
    label: m.name,
    disabled: m.state !== 'ready',
    extra,
    duration: m.duration_ms,
  });

  return (
    <ModalForm<ProjectFormValues>
      open={open}
      title={project ? t('form.editTitle', { name: project.name }) : senior ? t('form.addSeniorTitle') : t('form.addTitle')}
      form={form}
      initialValues={initialValues}
      onCancel={onClose}
      onSubmit={submit}
      width={960}
      testId="project-form"
      okText={t('form.save')}
    >
      <Form.Item
        name="name"
        label={t('form.name')}
        rules={[
          { required: true, whitespace: true, message: t('form.nameRequired') },
          { max: MAX_NAME_CHARS, message: t('form.nameTooLong', { max: MAX_NAME_CHARS }) },
        ]}
      >
        <Input maxLength={MAX_NAME_CHARS} placeholder={t('form.namePlaceholder')} data-testid="project-form-name" />
      </Form.Item>

      <Divider titlePlacement="start" plain>
        {t('form.sectionGroups')}
      </Divider>
      <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
        {senior ? t('form.groupsHelpSenior', { min: MIN_GROUPS }) : t('form.groupsHelp', { min: MIN_GROUPS })}
      </Typography.Paragraph>
      <Form.Item
        name="groups"
        required
        rules={[
          {
            validator: async (_, rows) => {
              const problem = groupsProblem(rows);
              if (problem) throw new Error(t(`form.groups.${problem}`, { min: MIN_GROUPS }));
              const shot = senior ? shotsProblem(rows) : null;
              if (shot)
                throw new Error(
                  t(`form.shots.${shot.problem}`, {
                    n: shot.index + 1,
                    max: shot.problem === 'badTransitionMs' ? TRANSITION_MS_MAX : MAX_SHOT_TEXT_CHARS,
                    min: TRANSITION_MS_MIN,
                  }),
                );
            },
          },
        ]}
      >
        <GroupPicker groups={groups.data?.rows ?? []} loading={groups.isFetching} advanced={senior} />
      </Form.Item>
      {senior ? (
        <div data-testid="project-form-shot-text" hidden={!captions}>
          <Divider titlePlacement="start" plain>
            {t('form.sectionShotText')}
          </Divider>
          <Typography.Paragraph type="secondary" style={{ marginTop: -8 }}>
            {t('form.shotTextHelp')}
          </Typography.Paragraph>
          <TextStyleFields name={['shot_style']} fonts={fontRows} fontsLoading={fonts.isFetching} testId="project-form-shot-text" hidden={!captions} />
        </div>
      ) : null}

      <Divider titlePlacement="start" plain>
        {t('form.sectionAudio')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          {handed && music.isSuccess ? (
            <Alert
              type={handedId !== undefined ? 'success' : 'warning'}
              showIcon
              style={{ marginBottom: 12 }}
              title={t(handedId !== undefined ? 'music.handedFound' : 'music.handedMissing', { title: handed.title, author: handed.author || '—' })}
              data-testid="project-form-handed-music"
            />
          ) : null}
          <Form.Item name={['music', 'source']} label={t('music.label')}>
            <Radio.Group
              optionType="button"
              options={(['none', 'mine', 'builtin'] as const).map((s) => ({ value: s, label: t(`music.sources.${s}`) }))}
              data-testid="project-form-music-source"
            />
          </Form.Item>
          <Form.Item
            name={['music', 'media_ids']}
            hidden={musicSource !== 'mine'}
            extra={t('tracks.help', { max: MAX_TRACKS })}
            rules={[
              {
                validator: async (_, v: number[] | undefined) => {
                  if (musicSource === 'mine' && !v?.length) throw new Error(t('music.required'));
                },
              },
            ]}
          >
            <Select<number[]>
              mode="multiple"
              maxCount={MAX_TRACKS}
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={music.isFetching}
              placeholder={t('music.pickMine')}
              options={(music.data?.rows ?? []).map((m) => mediaOption(m))}
              optionRender={(o) => (
                <Space style={{ width: '100%', justifyContent: 'space-between' }}>
                  <span>{o.label}</span>
                  <Typography.Text type="secondary">{formatDuration(o.data.duration)}</Typography.Text>
                </Space>
              )}
              notFoundContent={t('music.noneMine')}
              data-testid="project-form-music-mine"
            />
          </Form.Item>
          <Form.Item
            name={['music', 'system_music_id']}
            hidden={musicSource !== 'builtin'}
            rules={[{ required: musicSource === 'builtin', message: noBuiltin ? t('music.noneBuiltin') : t('music.required') }]}
            extra={noBuiltin ? <span data-testid="project-form-music-builtin-empty">{t('music.noneBuiltin')}</span> : undefined}
          >
            <Select<number>
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={builtin.isFetching}
              placeholder={t('music.pickBuiltin')}
              options={(builtin.data?.rows ?? []).map((m) => ({ value: m.id, label: m.name, duration: m.duration_ms, category: m.category }))}
              optionRender={(o) => (
                <Space style={{ width: '100%', justifyContent: 'space-between' }}>
                  <span>
                    {o.label} {o.data.category ? <Tag>{o.data.category}</Tag> : null}
                  </span>
                  <Typography.Text type="secondary">{formatDuration(o.data.duration)}</Typography.Text>
                </Space>
              )}
              notFoundContent={t('music.noneBuiltin')}
              data-testid="project-form-music-builtin"
            />
          </Form.Item>
          <Form.Item name={['music', 'volume']} label={t('music.volume')} hidden={musicSource === 'none' || !musicSource}>
            <Slider min={0} max={100} data-testid="project-form-music-volume" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name={['voice', 'media_ids']}
            label={t('voice.label')}
            extra={
              <>
                <LinkedText text={t('voice.help')} /> {t('tracks.help', { max: MAX_TRACKS })}
              </>
            }
            dependencies={[['subtitles', 'enabled']]}
            rules={[
              ({ getFieldValue }) => ({
                validator: async (_, v) => {
                  if (getFieldValue(['subtitles', 'enabled']) && !(v as number[] | undefined)?.length) throw new Error(t('subtitles.needVoice'));
                },
              }),
            ]}
          >
            <Select<number[]>
              mode="multiple"
              maxCount={MAX_TRACKS}
              allowClear
              showSearch={{ optionFilterProp: 'label' }}
              loading={voices.isFetching}
              placeholder={t('voice.pick')}
              options={voiceRows.map((m) => mediaOption(m, <AsrTag media={m} />))}
              optionRender={(o) => (
                <Space style={{ width: '100%', justifyContent: 'space-between' }}>
                  <span>{o.label}</span>
                  <Space size={4}>
                    <Typography.Text type="secondary">{formatDuration(o.data.duration)}</Typography.Text>
                    {o.data.extra}
                  </Space>
                </Space>
              )}
              notFoundContent={t('voice.none')}
              data-testid="project-form-voice"
            />
          </Form.Item>
          <Form.Item name={['voice', 'volume']} label={t('voice.volume')} hidden={!voiceIds?.length}>
            <Slider min={0} max={100} data-testid="project-form-voice-volume" />
          </Form.Item>
        </Col>
      </Row>

      <Form.Item label={t('subtitles.label')} style={{ marginBottom: 8 }}>
        <Space align="start">
          <Form.Item name={['subtitles', 'enabled']} valuePropName="checked" noStyle>
            <Switch data-testid="project-form-subtitles" />
          </Form.Item>
          <Typography.Text type="secondary">
            <InfoCircleOutlined /> {t('subtitles.help')}
          </Typography.Text>
        </Space>
      </Form.Item>
      {subtitlesOn && unrecognized ? (
        <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('subtitles.notRecognized', { name: unrecognized.name })} data-testid="project-form-subtitles-warning" />
      ) : null}
      <TextStyleFields name={['subtitles', 'style']} fonts={fontRows} fontsLoading={fonts.isFetching} testId="project-form-subtitles" hidden={!subtitlesOn} />

      <Divider titlePlacement="start" plain>
        {t('form.sectionTitle')}
      </Divider>
      <Form.Item
        name={['title', 'text']}
        label={
          <Space>
            {t('title.label')}
            <Button size="small" icon={<ThunderboltOutlined />} onClick={() => setGenerating(true)} data-testid="project-form-title-generate">
              {t('title.generate')}
            </Button>
          </Space>
        }
        extra={t('title.help', { max: MAX_TITLE_CHARS })}
        rules={[{ validator: async (_, v: string | undefined) => titleFits(v) }]}
      >
        <Input allowClear placeholder={t('title.placeholder')} count={titleCount} data-testid="project-form-title" />
      </Form.Item>
      <Form.List name={['title', 'more']}>
        {(fields, { add, remove }) => (
          <>
            {fields.map((f, i) => (
              <Form.Item key={f.key} label={t('title.more', { n: i + 2 })}>
                <Space.Compact style={{ width: '100%' }}>
                  <Form.Item
                    name={f.name}
                    noStyle
                    rules={[
                      {
                        validator: async (_, v: string | undefined) => {
                          titleFits(v);
                          const all = [form.getFieldValue(['title', 'text']), ...((form.getFieldValue(['title', 'more']) as string[] | undefined) ?? [])];
                          const mine = (v ?? '').trim();
                          if (mine && all.filter((x) => (x ?? '').trim() === mine).length > 1) throw new Error(t('title.repeated'));
                        },
                      },
                    ]}
                  >
                    <Input allowClear count={titleCount} data-testid={`project-form-title-${i + 2}`} />
                  </Form.Item>
                  <Button icon={<MinusCircleOutlined />} aria-label={t('title.remove')} title={t('title.remove')} onClick={() => remove(f.name)} data-testid={`project-form-title-remove-${i + 2}`} />
                </Space.Compact>
              </Form.Item>
            ))}
            <Form.Item extra={t('title.moreHelp', { max: MAX_TITLES })}>
              <Button type="dashed" icon={<PlusOutlined />} disabled={fields.length + 1 >= MAX_TITLES} onClick={() => add('')} data-testid="project-form-title-add">
                {t('title.add')}
              </Button>
            </Form.Item>
          </>
        )}
      </Form.List>
      <TextStyleFields name={['title', 'style']} fonts={fontRows} fontsLoading={fonts.isFetching} testId="project-form-title" />
      {generating ? (
        <Suspense fallback={null}>
          <GenerateTitlesDialog
            open
            maxChars={MAX_TITLE_CHARS}
            text={form.getFieldValue('name') ?? ''}
            onClose={() => setGenerating(false)}
            onPick={(titles) => {
              // The picked titles become the project's titles, the videos taking them in turn.
              const [first = '', ...rest] = titles.slice(0, MAX_TITLES);
              form.setFieldValue(['title', 'text'], first);
              form.setFieldValue(['title', 'more'], rest);
              void form.validateFields([['title', 'text']]);
            }}
          />
        </Suspense>
      ) : null}

      <Divider titlePlacement="start" plain>
        {t('form.sectionOutput')}
      </Divider>
      <Row gutter={16}>
        <Col xs={24} md={12}>
          <Form.Item name="cover_s" label={t('form.cover')} extra={t('form.coverHelp')} rules={[{ type: 'number', min: 0, message: t('form.coverInvalid') }]}>
            <InputNumber<number> min={0} max={3600} step={0.5} precision={1} suffix="s" style={{ width: '100%' }} data-testid="project-form-cover" />
          </Form.Item>
          <Form.Item name="cover_vary" label={t('form.coverVary')} extra={t('form.coverVaryHelp')} valuePropName="checked">
            <Switch data-testid="project-form-cover-vary" />
          </Form.Item>
          <Form.Item name="trim_vary" label={t('form.trimVary')} extra={t('form.trimVaryHelp')} valuePropName="checked">
            <Switch data-testid="project-form-trim-vary" />
          </Form.Item>
          <Form.Item name="text_vary" label={t('form.textVary')} extra={t('form.textVaryHelp')} valuePropName="checked">
            <Switch data-testid="project-form-text-vary" />
          </Form.Item>
        </Col>
        <Col xs={24} md={12}>
          <Form.Item
            name="output_count"
            label={t('form.outputCount')}
            extra={t('form.outputCountHelp')}
            rules={[
              { required: true, message: t('form.outputCountRange', { max: MAX_BATCH }) },
              { type: 'number', min: 1, max: MAX_BATCH, message: t('form.outputCountRange', { max: MAX_BATCH }) },
            ]}
          >
            <InputNumber<number> min={1} max={MAX_BATCH} precision={0} style={{ width: '100%' }} data-testid="project-form-output" />
          </Form.Item>
        </Col>
      </Row>
    </ModalForm>
  );
}
