import type { FormInstance } from 'antd';
import { useEffect, useRef } from 'react';
import { feedback } from '@/utils/feedback';
import { wt } from '../i18n';

export interface DiscardGuardOptions {
  /** The dialog's form; without one nothing is guarded. */
  form?: FormInstance;
  open: boolean;
  /** Closes the dialog for good. */
  onClose: () => void;
  /** Default true. */
  enabled?: boolean;
}

/**
 * Ask before a dialog (modal or drawer) whose form was changed is closed (Esc, X, mask, Cancel), so
 * a stray key does not throw away what was typed. Spread `captureProps` on an element around the
 * form and route every close through `requestClose`.
 *
 * A form is dirty when its values differ from what they were when the user first acted in it (a key,
 * a pointer, an input). `isFieldsTouched` alone is not enough: editors that normalize their value
 * once their options load mark a field touched with nobody typing, and closing an unchanged edit
 * dialog then asked to discard nothing.
 */
export function useDiscardGuard({ form, open, onClose, enabled = true }: DiscardGuardOptions) {
  const before = useRef<string | null>(null);
  const asking = useRef(false);
  useEffect(() => {
    if (open) before.current = null;
  }, [open]);

  const snapshot = () => {
    try {
      return JSON.stringify(form?.getFieldsValue(true));
    } catch {
      return '';
    }
  };
  const userActed = () => {
    if (form && before.current === null) before.current = snapshot();
  };
  const dirty = () => Boolean(form) && before.current !== null && form!.isFieldsTouched() && snapshot() !== before.current;

  const requestClose = () => {
    if (!enabled || !dirty()) {
      onClose();
      return;
    }
    // one question at a time (a second Esc while it is open does not stack another)
    if (asking.current) return;
    asking.current = true;
    feedback.confirm({
      title: wt('modal.discardTitle'),
      content: wt('modal.discardContent'),
      okText: wt('modal.discard'),
      cancelText: wt('modal.keepEditing'),
      onOk: () => {
        asking.current = false;
        onClose();
      },
      onCancel: () => {
        asking.current = false;
      },
    });
  };

  const captureProps = {
    onPointerDownCapture: userActed,
    onKeyDownCapture: userActed,
    onChangeCapture: userActed,
    onPasteCapture: userActed,
    onDropCapture: userActed,
  };
  return { requestClose, captureProps };
}
