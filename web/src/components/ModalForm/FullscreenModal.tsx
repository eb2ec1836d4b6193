import { CompressOutlined, ExpandOutlined } from '@ant-design/icons';
import { Button, Modal, type ModalProps } from 'antd';
import { useEffect, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

export interface FullscreenModalProps extends Omit<ModalProps, 'title' | 'width'> {
  open: boolean;
  title: ReactNode;
  width?: number | string;
  testId?: string;
}

/**
 * Dialog with a fullscreen toggle (SPEC §2, §4 "Dialog: fullscreen is reset to non-fullscreen on
 * every open"). ModalForm is built on it; use it directly for dialogs without a form.
 */
export default function FullscreenModal({ open, title, width = 560, style, testId = 'dialog', children, ...rest }: FullscreenModalProps) {
  const { t } = useTranslation();
  const [fullscreen, setFullscreen] = useState(false);

  useEffect(() => {
    if (open) setFullscreen(false);
  }, [open]);

  return (
    <Modal
      {...rest}
      open={open}
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
      {children}
    </Modal>
  );
}
