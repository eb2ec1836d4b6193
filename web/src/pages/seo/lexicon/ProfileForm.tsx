/** The merchant's SEO profile (docs/api-seo.md `profile`, `edit`): brand, product, region, description, category. */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Card, Col, Form, Input, Row, Select, Skeleton, Spin, Typography } from 'antd';
import { useEffect } from 'react';
import { useWrite } from '@/api/mutations';
import { fetchProfile, saveProfile, seoKeys } from '@/api/seo';
import type { ProfileReq } from '@/api/seo/types';
import { atFormField } from '@/pages/activities/shared/errors';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useSeoT } from '../i18n';
import { DESCRIPTION_MAX, PROFILE_FIELD_MAX } from '../rules';
import { useCategories } from '../shared/useCategories';

const SHORT_FIELDS = ['brand', 'product', 'region'] as const;

export default function ProfileForm() {
  const { t } = useSeoT();
  const client = useQueryClient();
  const [form] = Form.useForm<ProfileReq>();
  const profile = useQuery({ queryKey: seoKeys.profile, queryFn: fetchProfile, retry: false });
  const categories = useCategories();
  // the answer is the profile as saved: it is put in place, nothing reads again
  const write = useWrite(saveProfile);

  useEffect(() => {
    if (profile.data) form.setFieldsValue({ ...profile.data, category_id: profile.data.category_id || undefined } as ProfileReq);
  }, [profile.data, form]);

  const save = async () => {
    let v: ProfileReq;
    try {
      v = await form.validateFields();
    } catch {
      return;
    }
    try {
      const req: ProfileReq = {
        brand: (v.brand ?? '').trim(),
        product: (v.product ?? '').trim(),
        region: (v.region ?? '').trim(),
        description: (v.description ?? '').trim(),
        category_id: v.category_id ?? 0,
      };
      client.setQueryData(seoKeys.profile, await atFormField(form, write.mutateAsync(req)));
      feedback.success(t('common:savedSuccessfully'));
    } catch {
      /* shown at the field or toasted */
    }
  };

  return (
    <Card
      size="small"
      title={t('profile.title')}
      extra={profile.data?.updated_at ? <Typography.Text type="secondary">{t('profile.updatedAt', { time: formatTime(profile.data.updated_at) })}</Typography.Text> : null}
      style={{ marginBottom: 16 }}
    >
      {/* The form appears once the saved profile is in: filled in later, it overwrote what the
          merchant had typed meanwhile on a slow load. */}
      {profile.isPending ? (
        <div data-testid="profile-loading">
          <Skeleton active />
        </div>
      ) : (
        <Spin spinning={profile.isFetching}>
          <Form<ProfileReq> form={form} layout="vertical" data-testid="profile-form">
            <Row gutter={16}>
              {SHORT_FIELDS.map((f) => (
                <Col xs={24} md={6} key={f}>
                  <Form.Item name={f} label={t(`profile.${f}`)} rules={[{ max: PROFILE_FIELD_MAX, message: t('profile.tooLong', { max: PROFILE_FIELD_MAX }) }]}>
                    <Input maxLength={PROFILE_FIELD_MAX} placeholder={t(`profile.${f}Placeholder`)} data-testid={`profile-${f}`} />
                  </Form.Item>
                </Col>
              ))}
              <Col xs={24} md={6}>
                <Form.Item name="category_id" label={t('title.category')}>
                  <Select<number> allowClear showSearch={{ optionFilterProp: 'label' }} options={categories.options} loading={categories.loading} data-testid="profile-category" />
                </Form.Item>
              </Col>
            </Row>
            <Form.Item name="description" label={t('profile.description')} extra={t('profile.descriptionHelp')}>
              <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} maxLength={DESCRIPTION_MAX} showCount placeholder={t('profile.descriptionPlaceholder')} data-testid="profile-description" />
            </Form.Item>
            <Button type="primary" loading={write.isPending} onClick={() => void save()} data-testid="profile-save">
              {t('profile.save')}
            </Button>
          </Form>
        </Spin>
      )}
    </Card>
  );
}
