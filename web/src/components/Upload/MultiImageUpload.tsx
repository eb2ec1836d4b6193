/**
 * Multi-image uploader (SPEC §2, §4 upload item, §5 image upload): a list of image cards up to
 * `limit`. Over the limit: 'at most {limit} files, remove some and upload again' and nothing is
 * taken. Each file: gif/jpeg/png only, maxSize MB (default 10), crop dialog, then ready -> uploading
 * (percentage) -> success | error (cleared + 'upload file failed'). Removing asks 'remove {name}?'.
 */
import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Progress, Tooltip } from 'antd';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { feedback } from '@/utils/feedback';
import { useWidgetsT } from '../i18n';
import {
  DEFAULT_MAX_SIZE_MB,
  IMAGE_TYPES,
  SINGLE_BOX,
  checkCount,
  checkImage,
  nextUid,
  uploadErrorText,
  uploadFile,
  type UploadItem,
  type UploadResponse,
} from './core';
import { useCrop } from './useCrop';
import './upload.css';

export interface MultiImageUploadProps {
  value?: string[];
  onChange?: (srcs: string[]) => void;
  /** Each upload's answer data as it succeeds (the server may send more than fileName and src). */
  onUploaded?: (data: UploadResponse['data']) => void;
  action: string;
  /** Most images in the list (default 9). */
  limit?: number;
  maxSize?: number;
  crop?: boolean;
  aspect?: number;
  data?: Record<string, string | number>;
  field?: string;
  disabled?: boolean;
  testId?: string;
}

function nameOf(src: string): string {
  const clean = src.split(/[?#]/)[0];
  return decodeURIComponent(clean.slice(clean.lastIndexOf('/') + 1)) || src;
}

export default function MultiImageUpload({
  value,
  onChange,
  onUploaded,
  action,
  limit = 9,
  maxSize = DEFAULT_MAX_SIZE_MB,
  crop = true,
  aspect,
  data,
  field,
  disabled,
  testId = 'images-upload',
}: MultiImageUploadProps) {
  const { t } = useWidgetsT();
  const input = useRef<HTMLInputElement>(null);
  const cropper = useCrop(crop, aspect);
  /** Uploaded images (the value). */
  const [done, setDone] = useState<UploadItem[]>(() => (value ?? []).map((src) => ({ uid: nextUid(), name: nameOf(src), status: 'success', percent: 100, src })));
  /** Files on their way. */
  const [pending, setPending] = useState<UploadItem[]>([]);
  const doneRef = useRef(done);
  doneRef.current = done;
  const pendingRef = useRef(pending);
  pendingRef.current = pending;

  // follow a value set from outside (form reset, loaded record)
  const valueKey = JSON.stringify(value ?? []);
  useEffect(() => {
    const current = doneRef.current.map((i) => i.src);
    if (JSON.stringify(current) === valueKey) return;
    const byName = new Map(doneRef.current.map((i) => [i.src, i]));
    setDone((value ?? []).map((src) => byName.get(src) ?? { uid: nextUid(), name: nameOf(src), status: 'success', percent: 100, src }));
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [valueKey]);

  const emit = (items: UploadItem[]) => onChange?.(items.map((i) => i.src!).filter(Boolean));

  const uploadOne = async (uid: string, file: File) => {
    const patch = (p: Partial<UploadItem>) => setPending((list) => list.map((i) => (i.uid === uid ? { ...i, ...p } : i)));
    try {
      patch({ status: 'uploading' });
      const res = await uploadFile({ action, file, field, data, onProgress: (percent) => patch({ percent }) });
      setPending((list) => list.filter((i) => i.uid !== uid));
      const next = [...doneRef.current, { uid, name: res.data.fileName || file.name, status: 'success' as const, percent: 100, src: res.data.src, fileName: res.data.fileName }];
      doneRef.current = next;
      setDone(next);
      emit(next);
      onUploaded?.(res.data);
    } catch (error) {
      setPending((list) => list.filter((i) => i.uid !== uid));
      feedback.notifyError(t('upload.failed'), uploadErrorText(error));
    }
  };

  const onFiles = async (event: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(event.target.files ?? []);
    event.target.value = '';
    if (!files.length) return;
    const count = checkCount(doneRef.current.length + pendingRef.current.length, files.length, limit);
    if (!count.ok) {
      feedback.warning(count.message);
      return;
    }
    // ready: accepted, waiting for the crop dialog and the upload
    const accepted: Array<{ uid: string; file: File }> = [];
    for (const file of files) {
      const check = checkImage(file, maxSize);
      if (!check.ok) {
        feedback.warning(check.message);
        continue;
      }
      accepted.push({ uid: nextUid(), file });
    }
    setPending((list) => [...list, ...accepted.map(({ uid, file }) => ({ uid, name: file.name, status: 'ready' as const, percent: 0 }))]);
    const uploads: Promise<void>[] = [];
    for (const { uid, file } of accepted) {
      const cropped = await cropper.crop(file);
      if (cropped) uploads.push(uploadOne(uid, cropped));
      else setPending((list) => list.filter((i) => i.uid !== uid));
    }
    await Promise.all(uploads);
  };

  const askRemove = (item: UploadItem) => {
    feedback.confirm({
      title: t('upload.removeConfirm', { name: item.fileName || item.name }),
      content: '',
      okText: t('common:delete'),
      cancelText: t('common:cancel'),
      onOk: () => {
        const next = doneRef.current.filter((i) => i.uid !== item.uid);
        doneRef.current = next;
        setDone(next);
        emit(next);
      },
    });
  };

  const full = done.length + pending.length >= limit;

  return (
    <div className="cm-upload-multi" data-testid={testId}>
      <input
        ref={input}
        type="file"
        multiple
        accept={IMAGE_TYPES.join(',')}
        style={{ display: 'none' }}
        onChange={onFiles}
        data-testid={`${testId}-input`}
        disabled={disabled}
      />
      {done.map((item, index) => (
        <div key={item.uid} className="cm-upload-box" style={{ width: SINGLE_BOX, height: SINGLE_BOX }} data-testid={`${testId}-item-${index}`} data-state="success">
          <img src={item.src} alt={item.name} className="cm-upload-img" />
          {!disabled ? (
            <div className="cm-upload-actions">
              <Tooltip title={t('common:delete')}>
                <Button
                  type="text"
                  size="small"
                  icon={<DeleteOutlined />}
                  aria-label={t('common:delete')}
                  onClick={() => askRemove(item)}
                  data-testid={`${testId}-delete-${index}`}
                />
              </Tooltip>
            </div>
          ) : null}
        </div>
      ))}
      {pending.map((item) => (
        <div key={item.uid} className="cm-upload-box" style={{ width: SINGLE_BOX, height: SINGLE_BOX }} data-testid={`${testId}-pending`} data-state={item.status} data-percent={item.percent}>
          <div className="cm-upload-progress">
            <Progress type="circle" size={80} percent={item.percent} />
            <div className="cm-upload-name">{item.name}</div>
          </div>
        </div>
      ))}
      {!full && !disabled ? (
        <div className="cm-upload-box" style={{ width: SINGLE_BOX, height: SINGLE_BOX }} onClick={() => input.current?.click()}>
          <div className="cm-upload-empty" role="button" aria-label={t('upload.select')}>
            <PlusOutlined />
            <div>
              {t('upload.select')} ({done.length + pending.length}/{limit})
            </div>
          </div>
        </div>
      ) : null}
      {cropper.element}
    </div>
  );
}
