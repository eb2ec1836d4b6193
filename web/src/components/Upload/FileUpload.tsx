/**
 * File uploader (SPEC §2, §4 upload queue, §5 "The file uploader has a size check only"): chosen
 * files join a queue and go up `concurrency` at a time: waiting -> uploading -> successful | failed;
 * a failed one can be retried (back to waiting) or removed. `uploader` replaces the multipart POST to
 * `action` (a page's own transfer, e.g. a chunked upload), keeping the queue, progress and retry.
 */
import { DeleteOutlined, RedoOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Progress, Space, Tag, Tooltip, Typography } from 'antd';
import { useEffect, useRef, useState, type ChangeEvent } from 'react';
import { feedback } from '@/utils/feedback';
import { useWidgetsT } from '../i18n';
import { DEFAULT_MAX_SIZE_MB, checkSize, nextUid, uploadErrorText, uploadFile, type UploadResponse } from './core';
import './upload.css';

export type QueueStatus = 'waiting' | 'uploading' | 'failed' | 'successful';

export interface QueueItem {
  uid: string;
  name: string;
  size: number;
  status: QueueStatus;
  percent: number;
  error?: string;
  result?: UploadResponse['data'];
}

/** Sends one file; resolves with the answer's data, rejects with an Error carrying the server message. */
export type Uploader = (file: File, onProgress: (percent: number) => void) => Promise<UploadResponse['data']>;

export interface FileUploadProps {
  /** Multipart endpoint (not needed with `uploader`). */
  action?: string;
  uploader?: Uploader;
  /** MB, default 10. */
  maxSize?: number;
  multiple?: boolean;
  accept?: string;
  /** Uploads running at once (default 1). */
  concurrency?: number;
  data?: Record<string, string | number>;
  field?: string;
  /** The successful uploads, in queue order. */
  onChange?: (files: UploadResponse['data'][]) => void;
  /** Each upload as it succeeds. */
  onUploaded?: (file: UploadResponse['data']) => void;
  disabled?: boolean;
  testId?: string;
}

const STATUS_COLOR: Record<QueueStatus, string> = { waiting: 'default', uploading: 'processing', failed: 'error', successful: 'success' };

export default function FileUpload({
  action = '',
  uploader,
  maxSize = DEFAULT_MAX_SIZE_MB,
  multiple = true,
  accept,
  concurrency = 1,
  data,
  field,
  onChange,
  onUploaded,
  disabled,
  testId = 'file-upload',
}: FileUploadProps) {
  const { t } = useWidgetsT();
  const input = useRef<HTMLInputElement>(null);
  const [queue, setQueue] = useState<QueueItem[]>([]);
  const files = useRef(new Map<string, File>());
  const running = useRef(new Set<string>());
  const emitted = useRef('');

  const patch = (uid: string, p: Partial<QueueItem>) => setQueue((list) => list.map((i) => (i.uid === uid ? { ...i, ...p } : i)));

  // start waiting items while there is room
  useEffect(() => {
    const waiting = queue.filter((i) => i.status === 'waiting' && !running.current.has(i.uid));
    const room = Math.max(0, concurrency - running.current.size);
    for (const item of waiting.slice(0, room)) {
      const file = files.current.get(item.uid);
      if (!file) continue;
      running.current.add(item.uid);
      patch(item.uid, { status: 'uploading', percent: 0, error: undefined });
      const onProgress = (percent: number) => patch(item.uid, { percent });
      (uploader ? uploader(file, onProgress) : uploadFile({ action, file, field, data, onProgress }).then((res) => res.data))
        .then((result) => {
          patch(item.uid, { status: 'successful', percent: 100, result });
          onUploaded?.(result);
        })
        .catch((error: unknown) => {
          const text = uploadErrorText(error);
          patch(item.uid, { status: 'failed', error: text });
          feedback.notifyError(t('upload.failed'), text);
        })
        .finally(() => {
          running.current.delete(item.uid);
          setQueue((list) => [...list]); // wake the queue
        });
    }
  }, [queue, concurrency, action, uploader, field, data, t, onUploaded]);

  useEffect(() => {
    const done = queue.filter((i) => i.status === 'successful' && i.result).map((i) => i.result!);
    const key = JSON.stringify(done);
    if (key !== emitted.current) {
      emitted.current = key;
      if (queue.length || done.length) onChange?.(done);
    }
  }, [queue, onChange]);

  const onFiles = (event: ChangeEvent<HTMLInputElement>) => {
    const chosen = Array.from(event.target.files ?? []);
    event.target.value = '';
    const accepted: QueueItem[] = [];
    for (const file of chosen) {
      const check = checkSize(file, maxSize);
      if (!check.ok) {
        feedback.warning(check.message);
        continue;
      }
      const uid = nextUid();
      files.current.set(uid, file);
      accepted.push({ uid, name: file.name, size: file.size, status: 'waiting', percent: 0 });
    }
    if (accepted.length) setQueue((list) => [...list, ...accepted]);
  };

  const retry = (uid: string) => patch(uid, { status: 'waiting', percent: 0, error: undefined });
  const remove = (uid: string) => {
    files.current.delete(uid);
    setQueue((list) => list.filter((i) => i.uid !== uid));
  };

  return (
    <div data-testid={testId}>
      <input
        ref={input}
        type="file"
        multiple={multiple}
        accept={accept}
        style={{ display: 'none' }}
        onChange={onFiles}
        data-testid={`${testId}-input`}
        disabled={disabled}
      />
      <Button icon={<UploadOutlined />} onClick={() => input.current?.click()} disabled={disabled}>
        {t('upload.selectFile')}
      </Button>
      <Typography.Text type="secondary" style={{ marginLeft: 8 }}>
        {t('upload.sizeHint', { n: maxSize })}
      </Typography.Text>
      {queue.length ? (
        <div className="cm-file-upload-list">
          {queue.map((item, index) => (
            <div key={item.uid} data-testid={`${testId}-item-${index}`} data-state={item.status} style={{ display: 'flex', alignItems: 'center', gap: 8, padding: '4px 0' }}>
              <Typography.Text ellipsis style={{ maxWidth: 260 }} title={item.name}>
                {item.name}
              </Typography.Text>
              <Tag color={STATUS_COLOR[item.status]} data-testid={`${testId}-status-${index}`}>
                {t(`upload.queue.${item.status}`)}
              </Tag>
              {item.status === 'uploading' ? <Progress percent={item.percent} size="small" style={{ width: 140, margin: 0 }} /> : null}
              {item.status === 'failed' && item.error ? <Typography.Text type="danger">{item.error}</Typography.Text> : null}
              <Space size={0} style={{ marginLeft: 'auto' }}>
                {item.status === 'failed' ? (
                  <Tooltip title={t('upload.retry')}>
                    <Button type="text" size="small" icon={<RedoOutlined />} onClick={() => retry(item.uid)} aria-label={t('upload.retry')} data-testid={`${testId}-retry-${index}`} />
                  </Tooltip>
                ) : null}
                {item.status !== 'uploading' ? (
                  <Tooltip title={t('common:delete')}>
                    <Button type="text" size="small" icon={<DeleteOutlined />} onClick={() => remove(item.uid)} aria-label={t('common:delete')} />
                  </Tooltip>
                ) : null}
              </Space>
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
