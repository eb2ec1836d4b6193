import { Form, Input } from 'antd';
import ModalForm from '@/components/ModalForm';
import { useMaterialsT } from '../i18n';

export interface NameRequest {
  title: string;
  /** Current name (rename) or empty (add). */
  name?: string;
  max?: number;
  /** Resolve to close; a 422 naming `name` marks the field. */
  submit: (name: string) => Promise<unknown>;
}

/** The one-field dialog for adding and renaming groups, categories and files. */
export default function NameModal({ request, onClose }: { request: NameRequest | null; onClose: () => void }) {
  const { t } = useMaterialsT();
  const max = request?.max ?? 50;
  return (
    <ModalForm<{ name: string }>
      open={request !== null}
      title={request?.title ?? ''}
      initialValues={{ name: request?.name ?? '' }}
      onCancel={onClose}
      onSubmit={async ({ name }) => {
        await request?.submit(name.trim());
        onClose();
      }}
      testId="name-modal"
      width={420}
    >
      <Form.Item
        name="name"
        label={t('name')}
        rules={[
          { required: true, whitespace: true, message: t('nameRequired') },
          { max, message: t('nameTooLong', { max }) },
        ]}
      >
        <Input autoFocus maxLength={max} data-testid="name-input" />
      </Form.Item>
    </ModalForm>
  );
}
