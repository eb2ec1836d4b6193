/** The add / edit dialog of a home banner: titles in both languages, picture, click-through link, published, sort. */
import { Col, Form, Input, InputNumber, Row, Switch } from 'antd';
import { useMemo } from 'react';
import { addBanner, editBanner } from '@/api/content';
import type { Banner, BannerReq } from '@/api/content/types';
import { useContentT } from '../i18n';
import EntryForm from './EntryForm';
import { bannerToReq, emptyBanner, linkRule } from './rules';

export default function BannerForm({ banner, onClose, onSaved }: { banner: Banner | null | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useContentT();
  const [form] = Form.useForm<BannerReq>();
  const initialValues = useMemo(() => (banner ? bannerToReq(banner) : emptyBanner()), [banner]);
  const required = { required: true, whitespace: true, message: t('rules.required') };
  return (
    <EntryForm<BannerReq>
      open={banner !== undefined}
      form={form}
      width={640}
      title={banner ? t('action.editBanner', { title: banner.title }) : t('action.addBanner')}
      initialValues={initialValues}
      save={(req) => (banner ? editBanner(banner.id, req) : addBanner(req))}
      onClose={onClose}
      onSaved={onSaved}
      testId="banner-form"
    >
      <Form.Item name="title" label={t('field.title')} rules={[required, { max: 100 }]}>
        <Input maxLength={100} data-testid="banner-title" />
      </Form.Item>
      <Form.Item name="title_en" label={t('field.titleEn')} extra={t('help.en')} rules={[{ max: 100 }]}>
        <Input maxLength={100} />
      </Form.Item>
      <Form.Item name="image" label={t('field.image')} extra={t('help.link')} rules={[required, linkRule(t('rules.link'))]}>
        <Input placeholder="https://" data-testid="banner-image" />
      </Form.Item>
      <Form.Item name="link" label={t('field.link')} extra={t('help.link')} rules={[linkRule(t('rules.link'))]}>
        <Input placeholder="https://" data-testid="banner-link" />
      </Form.Item>
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="published" label={t('field.published')} valuePropName="checked">
            <Switch />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="sort" label={t('field.sort')} extra={t('help.sort')}>
            <InputNumber min={0} max={1_000_000} precision={0} />
          </Form.Item>
        </Col>
      </Row>
    </EntryForm>
  );
}
