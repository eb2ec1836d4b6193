/** The add / edit dialog of an update-log entry: version and the changes in both languages. */
import { Form, Input } from 'antd';
import { useMemo } from 'react';
import { addVersion, editVersion } from '@/api/content';
import type { VersionEntry, VersionReq } from '@/api/content/types';
import { useContentT } from '../i18n';
import EntryForm from './EntryForm';
import { emptyVersion, versionToReq } from './rules';

export default function VersionForm({ entry, onClose, onSaved }: { entry: VersionEntry | null | undefined; onClose: () => void; onSaved: () => void }) {
  const { t } = useContentT();
  const [form] = Form.useForm<VersionReq>();
  const initialValues = useMemo(() => (entry ? versionToReq(entry) : emptyVersion()), [entry]);
  const required = { required: true, whitespace: true, message: t('rules.required') };
  return (
    <EntryForm<VersionReq>
      open={entry !== undefined}
      form={form}
      width={640}
      title={entry ? t('action.editVersion', { version: entry.version }) : t('action.addVersion')}
      initialValues={initialValues}
      save={(req) => (entry ? editVersion(entry.id, req) : addVersion(req))}
      onClose={onClose}
      onSaved={onSaved}
      testId="version-form"
    >
      <Form.Item name="version" label={t('field.version')} rules={[required, { max: 32 }]}>
        <Input maxLength={32} placeholder="1.7.0" data-testid="version-version" />
      </Form.Item>
      <Form.Item name="content" label={t('field.content')} rules={[required, { max: 5000 }]}>
        <Input.TextArea rows={5} maxLength={5000} data-testid="version-content" />
      </Form.Item>
      <Form.Item name="content_en" label={t('field.contentEn')} extra={t('help.en')} rules={[{ max: 5000 }]}>
        <Input.TextArea rows={5} maxLength={5000} data-testid="version-content-en" />
      </Form.Item>
    </EntryForm>
  );
}
