import { Form, type FormInstance } from 'antd';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { RequestError } from '@/api/request';
import { feedback } from '@/utils/feedback';
import { wt } from '../i18n';
import FullscreenModal from './FullscreenModal';

export { default as FullscreenModal, type FullscreenModalProps } from './FullscreenModal';

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
 * fields were changed asks first, so Esc or a stray click on the mask does not throw away the input.
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

  // The form's values when the user first acted in it (a key, a pointer, an input): a dialog is
  // dirty when its values differ from that. `isFieldsTouched` alone is not enough: editors that
  // normalize their value once their options load mark a field touched with nobody typing, and
  // closing an unchanged edit dialog then asked to discard nothing.
  const before = useRef<string | null>(null);
  const snapshot = () => {
    try {
      return JSON.stringify(form.getFieldsValue(true));
    } catch {
      return '';
    }
  };
  const userActed = () => {
    if (before.current === null) before.current = snapshot();
  };
  const dirty = () => before.current !== null && form.isFieldsTouched() && snapshot() !== before.current;

  useEffect(() => {
    if (open) {
      before.current = null;
      form.resetFields();
      if (initialValues) form.setFieldsValue(initialValues as Parameters<typeof form.setFieldsValue>[0]);
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open]);

  // one question at a time (a second Esc while it is open does not stack another)
  const asking = useRef(false);
  const close = () => {
    if (!confirmDiscard || !dirty()) {
      onCancel();
      return;
    }
    if (asking.current) return;
    asking.current = true;
    feedback.confirm({
      title: wt('modal.discardTitle'),
      content: wt('modal.discardContent'),
      okText: wt('modal.discard'),
      cancelText: wt('modal.keepEditing'),
      onOk: () => {
        asking.current = false;
        onCancel();
      },
      onCancel: () => {
        asking.current = false;
      },
    });
  };

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
      onCancel={close}
      onOk={submit}
      okText={okText ?? t('ok')}
      cancelText={t('cancel')}
      confirmLoading={saving}
      forceRender
      okButtonProps={{ 'data-testid': `${testId}-ok` }}
    >
      <div
        onPointerDownCapture={userActed}
        onKeyDownCapture={userActed}
        onChangeCapture={userActed}
        onPasteCapture={userActed}
        onDropCapture={userActed}
      >
        <Form form={form} layout="vertical" data-testid={`${testId}-form`} preserve={false}>
          {children}
        </Form>
      </div>
    </FullscreenModal>
  );
}
