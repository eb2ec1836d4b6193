/** One name or word in a dialog (a category's name, a keyword), at most `max` characters. */
import { Form, Input } from 'antd';
import ModalForm from '@/components/ModalForm';
import { useSeoT } from '../i18n';
import { charCount } from '../rules';

export interface WordFormProps {
  open: boolean;
  title: string;
  label: string;
  /** The form field, also the field a 422 names (`name`, `word`). */
  field: 'name' | 'word';
  value?: string;
  max: number;
  onClose: () => void;
  onSubmit: (value: string) => Promise<unknown>;
  testId: string;
}

export default function WordForm({ open, title, label, field, value, max, onClose, onSubmit, testId }: WordFormProps) {
  const { t } = useSeoT();
  const [form] = Form.useForm<Record<string, string>>();
  return (
    <ModalForm<Record<string, string>>
      open={open}
      form={form}
      title={title}
      testId={testId}
      initialValues={{ [field]: value ?? '' }}
      onCancel={onClose}
      onSubmit={(v) => onSubmit(v[field].trim())}
    >
      <Form.Item
        name={field}
        label={label}
        rules={[
          { required: true, whitespace: true, message: t('words.oneRequired') },
          { validator: async (_, v: string) => (charCount(v?.trim()) > max ? Promise.reject(new Error(t('words.oneTooLong', { max }))) : undefined) },
        ]}
      >
        <Input showCount maxLength={max} data-testid={`${testId}-input`} />
      </Form.Item>
    </ModalForm>
  );
}
