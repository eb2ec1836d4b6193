import { CompressOutlined, ExpandOutlined } from '@ant-design/icons';
import { Button, Modal, type FormInstance, type ModalProps } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useDiscardGuard } from './discardGuard';

export interface FullscreenModalProps extends Omit<ModalProps, 'title' | 'width' | 'onCancel'> {
  /** Esc, X, mask or Cancel (with `form`: after the discard question, if any). */
  onCancel?: () => void;
  open: boolean;
  title: ReactNode;
  width?: number | string;
  testId?: string;
  /**
   * The dialog's form: closing it (Esc, X, mask, Cancel) once the user changed it asks 'Discard your
   * changes?' first. Pass it for every dialog with a form.
   */
  form?: FormInstance;
  /** With `form`: ask before discarding (default true). */
  confirmDiscard?: boolean;
}

/**
 * Dialog with a fullscreen toggle (SPEC §2, §4 "Dialog: fullscreen is reset to non-fullscreen on
 * every open"). ModalForm is built on it; a page's own dialog with a form passes `form` so a changed
 * form is not closed without asking.
 */
export default function FullscreenModal({ open, title, width = 560, style, testId = 'dialog', children, form, confirmDiscard = true, onCancel, ...rest }: FullscreenModalProps) {
  const { t } = useTranslation();
  const [fullscreen, setFullscreen] = useState(false);
  const guard = useDiscardGuard({ form, open, enabled: confirmDiscard, onClose: () => onCancel?.() });

  useEffect(() => {
    if (open) setFullscreen(false);
  }, [open]);

  return (
    <Modal
      {...rest}
      open={open}
      onCancel={form ? guard.requestClose : onCancel}
      title={
        <div style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', paddingRight: 32 }}>
          <span>{title}</span>
          <Button
            type="text"
            size="small"
            aria-label={t('fullscreen')}
            aria-pressed={fullscreen}
            data-testid={`${testId}-fullscreen`}
            icon={fullscreen ? <CompressOutlined /> : <ExpandOutlined />}
            onClick={() => setFullscreen((f) => !f)}
          />
        </div>
      }
      width={fullscreen ? '100%' : width}
      style={fullscreen ? { top: 0, maxWidth: '100vw', paddingBottom: 0, ...style } : style}
      wrapProps={{ 'data-fullscreen': fullscreen ? 'true' : 'false', 'data-testid': `${testId}-wrap` }}
    >
      {form ? <div {...guard.captureProps}>{children}</div> : children}
    </Modal>
  );
}
