/**
 * Create a slicing project (name, long videos from the video library, cut by fixed length or along the
 * subtitles, target shot group), or edit an existing one's settings. Built on the kit's ModalForm: a
 * failed check toasts SPEC's 'Form verification failed…', a 422 from the server marks its field.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Checkbox, Form, Input, InputNumber, Radio, Select, Space, Tag, Typography } from 'antd';
import { useMemo } from 'react';
import {
  createSliceProject,
  fetchPickVideos,
  fetchVideoGroups,
  modifySliceProject,
  startSliceProject,
  type SliceProject,
} from '@/api/clip/slice';
import { clipKeys } from '@/api/clip';
import { useWrite } from '@/api/mutations';
import { RequestError } from '@/api/request';
import ModalForm from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { formatDuration } from '../format';
import { useSliceT } from './i18n';
import {
  DEFAULT_MAX_SECONDS,
  DEFAULT_MIN_SECONDS,
  DEFAULT_SECONDS,
  MAX_NAME_CHARS,
  MAX_SECONDS,
  MIN_SECONDS,
  sliceProblems,
  toSettings,
  withoutSubtitles,
  type SliceFormValues,
} from './rules';

type Values = SliceFormValues & { start_now?: boolean };

export interface SliceFormProps {
  open: boolean;
  /** null: create; a project: edit its settings. */
  project: SliceProject | null;
  onClose: () => void;
  onSaved: (p: SliceProject) => void;
}

const FORM_FIELDS = ['name', 'resource_ids', 'mode', 'seconds', 'min_seconds', 'max_seconds', 'group_id'];

export default function SliceForm({ open, project, onClose, onSaved }: SliceFormProps) {
  const { t } = useSliceT();
  const [form] = Form.useForm<Values>();
  const creating = project === null;
  // each write marks the slicing stale: the projects list reads again
  const modify = useWrite(({ id, settings }: { id: number; settings: ReturnType<typeof toSettings> }) => modifySliceProject(id, settings), clipKeys.slice);
  const create = useWrite(createSliceProject, clipKeys.slice);
  const start = useWrite(startSliceProject, clipKeys.slice);
  const groups = useQuery({ queryKey: [...clipKeys.slice, 'groups'], queryFn: fetchVideoGroups, enabled: open });
  const videos = useQuery({ queryKey: [...clipKeys.slice, 'videos'], queryFn: () => fetchPickVideos(), enabled: open && creating });
  const videoRows = useMemo(() => videos.data?.rows ?? [], [videos.data]);
  const mode = Form.useWatch('mode', form);
  const picked = Form.useWatch('resource_ids', form);
  const missing = mode === 'subtitle' ? withoutSubtitles(picked ?? [], videoRows) : [];

  const initialValues: Values = project
    ? {
        name: project.name,
        mode: project.mode,
        seconds: project.seconds || DEFAULT_SECONDS,
        min_seconds: project.min_seconds || DEFAULT_MIN_SECONDS,
        max_seconds: project.max_seconds || DEFAULT_MAX_SECONDS,
        group_id: project.group_id,
      }
    : {
        mode: 'fixed',
        seconds: DEFAULT_SECONDS,
        min_seconds: DEFAULT_MIN_SECONDS,
        max_seconds: DEFAULT_MAX_SECONDS,
        resource_ids: [],
        start_now: true,
      };

  /** A field's rule: the first problem `sliceProblems` finds on it. */
  const rule = (field: string) => ({
    validator: async () => {
      const all = { ...initialValues, ...form.getFieldsValue(true) } as Values;
      const p = sliceProblems(all, creating ? videoRows : undefined).find((x) => x.field === field);
      if (p) throw new Error(t(`rules.${p.key}`));
    },
  });

  const submit = async (v: Values) => {
    const values = { ...form.getFieldsValue(true), ...v } as Values;
    try {
      let saved: SliceProject;
      if (project) {
        saved = await modify.mutateAsync({ id: project.id, settings: toSettings(values) });
        feedback.success(t('done.saved'));
      } else {
        saved = await create.mutateAsync({ ...toSettings(values), resource_ids: values.resource_ids ?? [] });
        feedback.success(t('done.created'));
        if (values.start_now) {
          const r = await start.mutateAsync(saved.id);
          saved = r.project;
        }
      }
      onSaved(saved);
    } catch (e) {
      // A 422 on one of the form's fields is shown there; anything else is toasted.
      if (e instanceof RequestError && (!e.field || !FORM_FIELDS.includes(e.field))) feedback.error(e.message);
      throw e;
    }
  };

  return (
    <ModalForm<Values>
      open={open}
      form={form}
      title={creating ? t('create') : t('edit')}
      initialValues={initialValues}
      onCancel={onClose}
      onSubmit={submit}
      width={620}
      testId="slice-form"
    >
      <Form.Item name="name" label={t('form.name')} rules={[rule('name')]} validateFirst>
        <Input placeholder={t('form.namePlaceholder')} maxLength={MAX_NAME_CHARS} showCount data-testid="slice-form-name" />
      </Form.Item>
      {creating ? (
        <Form.Item name="resource_ids" label={t('form.videos')} rules={[rule('resource_ids')]} dependencies={['mode']}>
          <Select<number[]>
            mode="multiple"
            allowClear
            loading={videos.isFetching}
            placeholder={t('form.videosPlaceholder')}
            showSearch={{ optionFilterProp: 'label' }}
            options={videoRows.map((m) => ({ value: m.id, label: m.name }))}
            optionRender={(o) => {
              const m = videoRows.find((x) => x.id === o.value);
              return (
                <Space data-testid={`slice-video-option-${o.value}`}>
                  <span>{o.label}</span>
                  <Typography.Text type="secondary">{formatDuration(m?.duration_ms)}</Typography.Text>
                  {m?.asr_state === 'success' ? <Tag color="green">{t('form.subtitleReady')}</Tag> : null}
                </Space>
              );
            }}
            data-testid="slice-form-videos"
          />
        </Form.Item>
      ) : null}
      <Form.Item name="mode" label={t('form.mode')} extra={t(`modeHelp.${mode === 'subtitle' ? 'subtitle' : 'fixed'}`)}>
        <Radio.Group
          optionType="button"
          options={[
            { value: 'fixed', label: t('mode.fixed') },
            { value: 'subtitle', label: t('mode.subtitle') },
          ]}
          data-testid="slice-form-mode"
        />
      </Form.Item>
      {mode === 'subtitle' ? (
        <Space align="start" size="large">
          <Form.Item name="min_seconds" label={t('form.minSeconds')} rules={[rule('min_seconds')]} dependencies={['max_seconds']}>
            <InputNumber min={MIN_SECONDS} max={MAX_SECONDS} precision={0} data-testid="slice-form-min" />
          </Form.Item>
          <Form.Item name="max_seconds" label={t('form.maxSeconds')} rules={[rule('max_seconds')]}>
            <InputNumber min={MIN_SECONDS} max={MAX_SECONDS} precision={0} data-testid="slice-form-max" />
          </Form.Item>
        </Space>
      ) : (
        <Form.Item name="seconds" label={t('form.seconds')} rules={[rule('seconds')]}>
          <InputNumber min={MIN_SECONDS} max={MAX_SECONDS} precision={0} data-testid="slice-form-seconds" />
        </Form.Item>
      )}
      {missing.length ? (
        <Alert
          type="warning"
          showIcon
          style={{ marginBottom: 16 }}
          title={t('form.noSubtitlesWarning', { names: missing.map((m) => m.name).join('、') })}
          data-testid="slice-form-no-subtitles"
        />
      ) : null}
      <Form.Item name="group_id" label={t('form.group')} rules={[rule('group_id')]}>
        <Select<number>
          loading={groups.isFetching}
          placeholder={t('form.groupPlaceholder')}
          showSearch={{ optionFilterProp: 'label' }}
          options={(groups.data?.rows ?? []).map((g) => ({ value: g.id, label: g.name }))}
          data-testid="slice-form-group"
        />
      </Form.Item>
      {creating ? (
        <Form.Item name="start_now" valuePropName="checked">
          <Checkbox data-testid="slice-form-start">{t('form.startNow')}</Checkbox>
        </Form.Item>
      ) : null}
    </ModalForm>
  );
}
