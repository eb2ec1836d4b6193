/**
 * The add / edit dialog of an NFC tag: its name, the platform it posts to, the video pool it hands out
 * (a mixing project's finished videos or a shot group's uploads, with what is left), the lottery activity
 * a post unlocks, the topics and whether it is in use.
 */
import { useQuery } from '@tanstack/react-query';
import { Form, Input, Radio, Select, Switch, Typography } from 'antd';
import { useMemo } from 'react';
import { useWrite } from '@/api/mutations';
import { addTag, editTag, fetchPools, nfcKeys } from '@/api/nfc';
import type { TagReq } from '@/api/nfc/types';
import type { Pool, PoolKind, Tag } from '@/api/nfc/types';
import ModalForm from '@/components/ModalForm';
import { atFormField } from '@/pages/activities/shared/errors';
import { useActivityOptions } from '@/pages/activities/shared/useActivityOptions';
import { feedback } from '@/utils/feedback';
import { useNfcT } from './i18n';
import { PLATFORMS, POOL_KINDS, TAG_NAME_MAX, TOPICS_MAX, charCount, cleanTopics, emptyTagForm, tagToForm, toTagReq, type TagFormValues } from './rules';

export interface TagFormProps {
  open: boolean;
  /** null: a new tag. */
  tag: Tag | null;
  onClose: () => void;
  onSaved: (tag: Tag) => void;
}

export default function TagForm({ open, tag, onClose, onSaved }: TagFormProps) {
  const { t } = useNfcT();
  const [form] = Form.useForm<TagFormValues>();
  const initialValues = useMemo(() => (tag ? tagToForm(tag) : emptyTagForm()), [tag]);
  const kind = (Form.useWatch('pool_kind', form) ?? initialValues.pool_kind) as PoolKind;

  const save = useWrite((req: TagReq) => (tag ? editTag(tag.id, req) : addTag(req)), nfcKeys.all);
  const pools = useQuery({ queryKey: nfcKeys.pools, queryFn: fetchPools, enabled: open, staleTime: 0, retry: false });
  const activities = useActivityOptions(open);

  const poolOptions = useMemo(() => {
    const list: Pool[] = (kind === 'project' ? pools.data?.projects : pools.data?.groups) ?? [];
    const options = list.map((p) => ({
      value: p.id,
      label: t('form.poolOption', { name: p.name, left: p.left, videos: p.videos }),
      disabled: p.videos <= 0,
    }));
    // the tag's own pool, even when the list no longer offers it
    if (tag && tag.pool_kind === kind && !list.some((p) => p.id === tag.pool_id))
      options.unshift({ value: tag.pool_id, label: t('form.poolOption', { name: tag.pool_name, left: tag.pool_left, videos: tag.pool_size }), disabled: false });
    return options;
  }, [kind, pools.data, tag, t]);

  const activityOptions = useMemo(
    () => [
      { value: 0, label: t('form.noActivity') },
      ...activities.rows.map((a) => ({ value: a.id, label: a.state === 'ended' ? t('form.activityEnded', { name: a.name }) : a.name })),
    ],
    [activities.rows, t],
  );

  return (
    <ModalForm<TagFormValues>
      open={open}
      form={form}
      width={640}
      title={tag ? t('tag.editTitle', { name: tag.name }) : t('tag.addTitle')}
      initialValues={initialValues}
      onCancel={onClose}
      onSubmit={async (values) => {
        const req = toTagReq(values);
        const saved = await atFormField(form, save.mutateAsync(req));
        feedback.success(t('common:savedSuccessfully'));
        onSaved(saved);
      }}
      testId="tag-form"
    >
      <div data-testid="tag-form">
      <Form.Item
        name="name"
        label={t('tag.name')}
        rules={[
          { required: true, whitespace: true, message: t('rules.nameRequired') },
          {
            validator: async (_, v: string) => {
              if (charCount(v?.trim()) > TAG_NAME_MAX) throw new Error(t('rules.nameTooLong', { max: TAG_NAME_MAX }));
            },
          },
        ]}
      >
        <Input showCount maxLength={TAG_NAME_MAX} placeholder={t('form.namePlaceholder')} data-testid="tag-form-name" />
      </Form.Item>
      <Form.Item name="platform" label={t('tag.platform')}>
        <Select options={PLATFORMS.map((p) => ({ value: p, label: t(`platform.${p}`) }))} data-testid="tag-form-platform" />
      </Form.Item>
      <Form.Item name="pool_kind" label={t('tag.poolKind')} extra={t(`form.poolKindHelp.${kind}`)}>
        <Radio.Group onChange={() => form.setFieldValue('pool_id', undefined)} data-testid="tag-form-pool-kind">
          {POOL_KINDS.map((k) => (
            <Radio key={k} value={k} data-testid={`tag-form-pool-kind-${k}`}>
              {t(`poolKind.${k}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name="pool_id" label={t('tag.pool')} rules={[{ required: true, message: t('rules.poolRequired') }]}>
        <Select<number>
          showSearch={{ optionFilterProp: 'label' }}
          loading={pools.isFetching}
          placeholder={t(`form.poolPlaceholder.${kind}`)}
          options={poolOptions}
          notFoundContent={pools.isFetching ? undefined : t(`form.noPools.${kind}`)}
          data-testid="tag-form-pool"
        />
      </Form.Item>
      <Form.Item name="activity_id" label={t('tag.activity')} extra={t('form.activityHelp')}>
        <Select<number> showSearch={{ optionFilterProp: 'label' }} loading={activities.loading} options={activityOptions} data-testid="tag-form-activity" />
      </Form.Item>
      <Form.Item
        name="topics"
        label={t('tag.topics')}
        extra={t('form.topicsHelp', { max: TOPICS_MAX })}
        normalize={(v: string[]) => cleanTopics(v)}
        rules={[
          {
            validator: async (_, v: string[] | undefined) => {
              if ((v ?? []).length > TOPICS_MAX) throw new Error(t('rules.topicsMax', { max: TOPICS_MAX }));
            },
          },
        ]}
      >
        <Select
          mode="tags"
          maxCount={TOPICS_MAX}
          open={false}
          suffixIcon={null}
          tokenSeparators={[',', '，', ' ', '#']}
          placeholder={t('form.topicsPlaceholder')}
          data-testid="tag-form-topics"
        />
      </Form.Item>
      <Form.Item name="enabled" label={t('tag.enabled')} valuePropName="checked" extra={<Typography.Text type="secondary">{t('form.enabledHelp')}</Typography.Text>}>
        <Switch data-testid="tag-form-enabled" />
      </Form.Item>
      </div>
    </ModalForm>
  );
}
