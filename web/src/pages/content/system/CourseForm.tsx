/**
 * The add / edit dialog of a course: category, titles and summaries in both languages, cover, its video
 * or rich text, published, sort. The cover and the video are links, or files uploaded here
 * (`/system/content/upload`, kept with a permanent link of this site).
 */
import { Col, Form, Input, InputNumber, Radio, Row, Select, Switch } from 'antd';
import { useMemo } from 'react';
import { addCourse, contentUrls, editCourse } from '@/api/content';
import type { BodyKind, Course, CourseReq } from '@/api/content/types';
import FileUpload from '@/components/Upload/FileUpload';
import { useContentT } from '../i18n';
import EntryForm from './EntryForm';
import { CATEGORIES, emptyCourse, courseToReq, linkRule } from './rules';

export default function CourseForm({ course, onClose, onSaved }: { course: Course | null | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useContentT();
  const [form] = Form.useForm<CourseReq>();
  const initialValues = useMemo(() => (course ? courseToReq(course) : emptyCourse()), [course]);
  const kind = (Form.useWatch('body_kind', form) ?? initialValues.body_kind) as BodyKind;
  const required = { required: true, whitespace: true, message: t('rules.required') };

  return (
    <EntryForm<CourseReq>
      open={course !== undefined}
      form={form}
      width={760}
      title={course ? t('action.editCourse', { title: course.title }) : t('action.addCourse')}
      initialValues={initialValues}
      save={(req) => (course ? editCourse(course.id, req) : addCourse(req))}
      onClose={onClose}
      onSaved={onSaved}
      testId="course-form"
    >
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="category" label={t('field.category')} rules={[{ required: true, message: t('rules.required') }]}>
            <Select options={CATEGORIES.map((c) => ({ value: c, label: t(`category.${c}`) }))} data-testid="course-category" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="body_kind" label={t('field.kind')}>
            <Radio.Group options={(['video', 'rich'] as const).map((k) => ({ value: k, label: t(`kind.${k}`) }))} data-testid="course-kind" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="title" label={t('field.title')} rules={[required, { max: 100 }]}>
            <Input maxLength={100} data-testid="course-title" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="title_en" label={t('field.titleEn')} extra={t('help.en')} rules={[{ max: 100 }]}>
            <Input maxLength={100} data-testid="course-title-en" />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="summary" label={t('field.summary')} rules={[{ max: 300 }]}>
            <Input.TextArea rows={2} maxLength={300} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item name="summary_en" label={t('field.summaryEn')} rules={[{ max: 300 }]}>
            <Input.TextArea rows={2} maxLength={300} />
          </Form.Item>
        </Col>
      </Row>
      <Form.Item name="cover" label={t('field.cover')} extra={t('help.link')} rules={[linkRule(t('rules.link'))]}>
        <Input placeholder="https://" data-testid="course-cover" />
      </Form.Item>
      <Form.Item label={t('field.coverUpload')}>
        <FileUpload
          action={contentUrls.upload}
          data={{ kind: 'image' }}
          multiple={false}
          maxSize={10}
          accept="image/jpeg,image/png,image/gif"
          onUploaded={(d) => form.setFieldsValue({ cover: d.src })}
          testId="course-cover-upload"
        />
      </Form.Item>
      {kind === 'video' ? (
        <Form.Item name="video_url" label={t('field.videoUrl')} extra={t('help.link')} rules={[required, linkRule(t('rules.link'))]}>
          <Input placeholder="https://" data-testid="course-video-url" />
        </Form.Item>
      ) : null}
      {kind === 'video' ? (
        <Form.Item label={t('field.videoUpload')} extra={t('help.videoUpload')}>
          <FileUpload
            action={contentUrls.upload}
            data={{ kind: 'video' }}
            multiple={false}
            maxSize={300}
            accept="video/mp4,video/quicktime,video/webm"
            onUploaded={(d) => form.setFieldsValue({ video_url: d.src })}
            testId="course-video-upload"
          />
        </Form.Item>
      ) : (
        <>
          <Form.Item name="body" label={t('field.body')} extra={t('help.body')} rules={[required]}>
            <Input.TextArea rows={8} data-testid="course-body-input" />
          </Form.Item>
          <Form.Item name="body_en" label={t('field.bodyEn')} extra={t('help.en')}>
            <Input.TextArea rows={6} data-testid="course-body-en-input" />
          </Form.Item>
        </>
      )}
      <Row gutter={16}>
        <Col span={12}>
          <Form.Item name="published" label={t('field.published')} valuePropName="checked">
            <Switch data-testid="course-published" />
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
