import { Typography } from 'antd';
import type { ReactNode } from 'react';
import { FullscreenModal } from '@/components/ModalForm';
import FileUpload, { type Uploader } from '@/components/Upload/FileUpload';

export interface UploadDialogProps {
  open: boolean;
  title: ReactNode;
  hint?: ReactNode;
  onClose: () => void;
  uploader: Uploader;
  accept: string;
  /** MB. */
  maxSize: number;
  onUploaded: () => void;
  testId: string;
  /** Above the queue (e.g. a name field). */
  children?: ReactNode;
  /** A new key starts a new queue (e.g. another target group). */
  queueKey?: string | number;
}

/**
 * The upload dialog of a library: the widget kit's FileUpload queue (per-file progress, retry) with
 * the page's uploader. It stays mounted while closed, so a running queue keeps going.
 */
export default function UploadDialog({ open, title, hint, onClose, uploader, accept, maxSize, onUploaded, testId, children, queueKey }: UploadDialogProps) {
  return (
    <FullscreenModal open={open} title={title} onCancel={onClose} footer={null} width={640} testId={`${testId}-dialog`}>
      {hint ? <Typography.Paragraph type="secondary">{hint}</Typography.Paragraph> : null}
      {children}
      <FileUpload key={queueKey} uploader={uploader} accept={accept} maxSize={maxSize} multiple onUploaded={onUploaded} testId={`${testId}-files`} />
    </FullscreenModal>
  );
}
