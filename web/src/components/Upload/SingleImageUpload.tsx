/**
 * Single-image uploader (SPEC §2, §4 upload item, §5 image upload, §9): a 148x148 box holding one
 * image; a new file replaces the old one. Only gif/jpeg/png up to maxSize MB (default 10), a crop
 * dialog before the upload, states ready -> uploading (percentage) -> success (image with delete) |
 * error (cleared, 'upload file failed' notification).
 */
import { DeleteOutlined, PlusOutlined, SwapOutlined } from '@ant-design/icons';
import { Button, Progress, Tooltip } from 'antd';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { feedback } from '@/utils/feedback';
import { useWidgetsT } from '../i18n';
import {
  DEFAULT_MAX_SIZE_MB,
  IMAGE_TYPES,
  SINGLE_BOX,
  checkImage,
  nextUid,
  uploadErrorText,
  uploadFile,
  type UploadItem,
  type UploadResponse,
} from './core';
import { useCrop } from './useCrop';
import './upload.css';

export interface SingleImageUploadProps {
  /** The image address (data.src of the upload answer). */
  value?: string;
  onChange?: (src: string | undefined, data?: UploadResponse['data']) => void;
  /** Upload endpoint (a path under /api or an absolute URL). */
  action: string;
  /** MB, default 10. */
  maxSize?: number;
  /** Show the crop dialog before uploading (default true). */
  crop?: boolean;
  aspect?: number;
  /** Extra multipart fields. */
  data?: Record<string, string | number>;
  /** Multipart field name of the file. */
  field?: string;
  disabled?: boolean;
  testId?: string;
}

export default function SingleImageUpload({
  value,
  onChange,
  action,
  maxSize = DEFAULT_MAX_SIZE_MB,
  crop = true,
  aspect,
  data,
  field,
  disabled,
  testId = 'image-upload',
}: SingleImageUploadProps) {
  const { t } = useWidgetsT();
  const input = useRef<HTMLInputElement>(null);
  const [item, setItem] = useState<UploadItem | null>(null);
  const cropper = useCrop(crop, aspect);

  // a value cleared from outside (form reset) drops the uploaded image too
  const firstValue = useRef(true);
  useEffect(() => {
    if (firstValue.current) {
      firstValue.current = false;
      return;
    }
    if (!value) setItem((cur) => (cur?.status === 'success' ? null : cur));
  }, [value]);

  const pick = () => {
    if (!disabled && item?.status !== 'uploading') input.current?.click();
  };

  const onFile = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = ''; // the chosen file is cleared from the picker either way
    if (!file) return;
    const check = checkImage(file, maxSize);
    if (!check.ok) {
      feedback.warning(check.message);
      return;
    }
    // ready: accepted, waiting for the crop dialog and the upload
    const uid = nextUid();
    setItem({ uid, name: file.name, status: 'ready', percent: 0 });
    const cropped = await cropper.crop(file);
    if (!cropped) {
      setItem(null);
      return;
    }
    try {
      setItem({ uid, name: cropped.name, status: 'uploading', percent: 0 });
      const res = await uploadFile({
        action,
        file: cropped,
        field,
        data,
        onProgress: (percent) => setItem((cur) => (cur?.uid === uid && cur.status === 'uploading' ? { ...cur, percent } : cur)),
      });
      setItem({ uid, name: cropped.name, status: 'success', percent: 100, src: res.data.src, fileName: res.data.fileName });
      onChange?.(res.data.src, res.data);
    } catch (error) {
      setItem(null);
      feedback.notifyError(t('upload.failed'), uploadErrorText(error));
    }
  };

  const remove = () => {
    setItem(null);
    onChange?.(undefined);
  };

  const src = value || (item?.status === 'success' ? item.src : undefined);
  const status = item?.status === 'ready' || item?.status === 'uploading' ? item.status : src ? 'success' : 'empty';

  return (
    <div className="cm-upload-single" data-testid={testId} data-state={status}>
      <input
        ref={input}
        type="file"
        accept={IMAGE_TYPES.join(',')}
        style={{ display: 'none' }}
        onChange={onFile}
        data-testid={`${testId}-input`}
        disabled={disabled}
      />
      <div className="cm-upload-box" style={{ width: SINGLE_BOX, height: SINGLE_BOX }} onClick={status === 'empty' ? pick : undefined}>
        {status === 'empty' ? (
          <div className="cm-upload-empty" role="button" aria-label={t('upload.select')}>
            <PlusOutlined />
            <div>{t('upload.select')}</div>
          </div>
        ) : null}
        {status === 'ready' || status === 'uploading' ? (
          <div className="cm-upload-progress" data-testid={`${testId}-progress`} data-percent={item?.percent ?? 0}>
            <Progress type="circle" size={80} percent={item?.percent ?? 0} />
            <div className="cm-upload-name">{status === 'ready' ? t('upload.ready') : t('upload.uploading')}</div>
          </div>
        ) : null}
        {status === 'success' && src ? (
          <>
            <img src={src} alt={item?.fileName ?? ''} className="cm-upload-img" data-testid={`${testId}-img`} />
            {!disabled ? (
              <div className="cm-upload-actions">
                <Tooltip title={t('upload.replace')}>
                  <Button type="text" size="small" icon={<SwapOutlined />} onClick={pick} aria-label={t('upload.replace')} />
                </Tooltip>
                <Tooltip title={t('common:delete')}>
                  <Button
                    type="text"
                    size="small"
                    icon={<DeleteOutlined />}
                    onClick={remove}
                    aria-label={t('common:delete')}
                    data-testid={`${testId}-delete`}
                  />
                </Tooltip>
              </div>
            ) : null}
          </>
        ) : null}
      </div>
      {cropper.element}
    </div>
  );
}
