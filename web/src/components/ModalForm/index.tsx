import { Form, type FormInstance } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '@/api/request';
import { feedback } from '@/utils/feedback';
import FullscreenModal from './FullscreenModal';

export { default as FullscreenModal, type FullscreenModalProps } from './FullscreenModal';
export { useDiscardGuard, type DiscardGuardOptions } from './discardGuard';

export interface ModalFormProps<V> {
  open: boolean;
  title: ReactNode;
  initialValues?: Partial<V>;
  onCancel: () => void;
  /** Resolve to close; a 422 naming a field marks that field. */
  onSubmit: (values: V) => Promise<unknown>;
  children: ReactNode;
  width?: number;
  testId?: string;
  okText?: ReactNode;
  form?: FormInstance<V>;
  /** Ask before a dialog whose fields were changed is closed (Esc, X, mask, Cancel). Default true. */
  confirmDiscard?: boolean;
}

/**
 * Dialog with a form, built on FullscreenModal (the fullscreen toggle resets on every open).
 * Validation failure toasts 'Form verification failed, please check input!'. Closing a dialog whose
 * fields were changed asks first (FullscreenModal's `form`).
 */
export default function ModalForm<V extends object>({
  open,
  title,
  initialValues,
  onCancel,
  onSubmit,
  children,
  width = 560,
  testId = 'modal-form',
  okText,
  form: external,
  confirmDiscard = true,
}: ModalFormProps<V>) {
  const { t } = useTranslation();
  const [own] = Form.useForm<V>();
  const form = external ?? own;
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    if (open) {
      form.resetFields();
      if (initialValues) form.setFieldsValue(initialValues as Parameters<typeof form.setFieldsValue>[0]);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  const submit = async () => {
    let values: V;
    try {
      values = await form.validateFields();
    } catch {
      feedback.warning(t('validation.formFailed'));
      return;
    }
    setSaving(true);
    try {
      await onSubmit(values);
    } catch (error) {
      if (error instanceof RequestError && error.field) {
        form.setFields([{ name: error.field as never, errors: [error.message] }]);
      }
    } finally {
      setSaving(false);
    }
  };

  return (
    <FullscreenModal
      open={open}
      title={title}
      width={width}
      testId={testId}
      onCancel={onCancel}
      form={form as FormInstance}
      confirmDiscard={confirmDiscard}
      onOk={submit}
      okText={okText ?? t('ok')}
      cancelText={t('cancel')}
      confirmLoading={saving}
      forceRender
      okButtonProps={{ 'data-testid': `${testId}-ok` }}
    >
      <Form form={form} layout="vertical" data-testid={`${testId}-form`} preserve={false}>
        {children}
      </Form>
    </FullscreenModal>
  );
}
