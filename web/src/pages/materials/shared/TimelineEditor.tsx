/**
 * The subtitle timeline editor (shared by /video and /speak): plays the material, lists its lines
 * (start s, end s, content) from get_asr_timeline; a line's time button seeks the player, the
 * "set start / set end" buttons take the player's current time; lines are edited in the widget kit's
 * EditableTable, added at the player's position and removed; save replaces every line
 * (save_asr_times) and a refused line shows the server's message on that line. The recognition
 * state follows the progress stream, and a finished recognition loads the new lines.
 */
import { AimOutlined, SaveOutlined, VerticalLeftOutlined, VerticalRightOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Empty, Space, Spin, Tooltip, Typography } from 'antd';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchTimeline, materialsKeys, saveTimeline } from '@/api/materials';
import { useWrite } from '@/api/mutations';
import type { MediaEvent, MediaKind } from '@/api/materials/types';
import { RequestError } from '@/api/request';
import EditableTable, { type EditableColumn, type EditableTableRef } from '@/components/EditableTable';
import { FullscreenModal } from '@/components/ModalForm';
import { feedback } from '@/utils/feedback';
import { useMaterialsT } from '../i18n';
import { formatClock, roundSec } from './format';
import { AsrStateTag } from './MediaStateTag';
import RecognizeButton from './RecognizeButton';
import {
  activeLineIndex,
  lineProblem,
  locateServerError,
  newLineAt,
  toAsrLines,
  toEditLines,
  type EditLine,
  type LineField,
} from './timeline';
import { useMediaProgress } from './useMediaProgress';
import './materials.css';

export interface TimelineTarget {
  id: number;
  name: string;
  kind: MediaKind;
  duration_ms?: number;
}

const snapshot = (lines: readonly EditLine[]) => JSON.stringify(lines.map(({ start, end, content }) => [start, end, content]));

/** Saving marks the area stale: the library's row (its subtitle state) reads again. */
export default function TimelineEditor({ target, onClose }: { target: TimelineTarget | null; onClose: () => void }) {
  const { t } = useMaterialsT();
  const id = target?.id;
  const query = useQuery({
    queryKey: materialsKeys.timeline(id),
    queryFn: () => fetchTimeline(id!),
    enabled: id !== undefined,
    staleTime: 0,
    gcTime: 0,
    retry: false,
  });
  const player = useRef<HTMLMediaElement | null>(null);
  const table = useRef<EditableTableRef>(null);
  const [lines, setLines] = useState<EditLine[]>([]);
  const [baseline, setBaseline] = useState('[]');
  const [now, setNow] = useState(0);
  const saving = useWrite(({ resourceId, lines }: { resourceId: number; lines: ReturnType<typeof toAsrLines> }) => saveTimeline(resourceId, lines), materialsKeys.all);
  const [serverErrors, setServerErrors] = useState<Map<string, { field: LineField; message: string }>>(() => new Map());
  const [generalError, setGeneralError] = useState('');
  const dirty = snapshot(lines) !== baseline;
  const dirtyRef = useRef(dirty);
  dirtyRef.current = dirty;

  // lines from the server replace the editor's unless the user has unsaved edits
  useEffect(() => {
    if (!query.data || dirtyRef.current) return;
    const next = toEditLines(query.data.lines);
    setLines(next);
    setBaseline(snapshot(next));
    setServerErrors(new Map());
    setGeneralError('');
  }, [query.data]);

  useEffect(() => {
    if (target) return;
    setLines([]);
    setBaseline('[]');
    setNow(0);
    setServerErrors(new Map());
    setGeneralError('');
  }, [target]);

  // the recognition state follows the progress stream; a finished recognition brings its lines
  const { live } = useMediaProgress(
    useCallback(
      (rows: MediaEvent[]) => {
        if (id !== undefined && rows.some((r) => r.id === id)) void query.refetch();
      },
      [id, query],
    ),
  );
  const liveRow = id !== undefined ? live.get(id) : undefined;
  const asrState = liveRow && (!query.data || liveRow.asr_state !== query.data.asr_state) ? liveRow.asr_state : (query.data?.asr_state ?? '');
  const asrError = query.data?.asr_error ?? '';

  const duration = query.data?.duration ?? (target?.duration_ms ? target.duration_ms / 1000 : 0);
  const currentTime = () => roundSec(player.current?.currentTime ?? now);

  const seek = (sec: number | undefined) => {
    if (sec === undefined || !player.current) return;
    player.current.currentTime = sec;
    setNow(sec);
  };

  const change = (next: EditLine[]) => {
    setLines(next);
    if (serverErrors.size) setServerErrors(new Map());
    if (generalError) setGeneralError('');
  };
  const setAt = (index: number, field: 'start' | 'end') => change(lines.map((l, i) => (i === index ? { ...l, [field]: currentTime() } : l)));

  const problemText = (row: EditLine, field: LineField): string | null => {
    const server = serverErrors.get(row.uid);
    if (server && server.field === field) return server.message;
    const p = lineProblem(row, duration);
    return p && p.field === field ? t(p.key, p.params) : null;
  };

  const columns = useMemo<EditableColumn<EditLine>[]>(
    () => [
      {
        title: '#',
        dataIndex: 'uid',
        editor: 'readonly',
        width: 150,
        render: (_v, row, index) => (
          <Space size={0} wrap={false}>
            <Tooltip title={t('timeline.seek')}>
              <Button type="link" size="small" icon={<AimOutlined />} onClick={() => seek(row.start)} data-testid={`timeline-seek-${index}`} style={{ padding: 0 }}>
                {index + 1}
              </Button>
            </Tooltip>
            <Tooltip title={t('timeline.setStart')}>
              <Button type="text" size="small" icon={<VerticalRightOutlined />} aria-label={t('timeline.setStart')} onClick={() => setAt(index, 'start')} data-testid={`timeline-set-start-${index}`} />
            </Tooltip>
            <Tooltip title={t('timeline.setEnd')}>
              <Button type="text" size="small" icon={<VerticalLeftOutlined />} aria-label={t('timeline.setEnd')} onClick={() => setAt(index, 'end')} data-testid={`timeline-set-end-${index}`} />
            </Tooltip>
          </Space>
        ),
      },
      { title: t('timeline.start'), dataIndex: 'start', editor: 'number', width: 110, validate: (_v, row) => problemText(row, 'start') },
      { title: t('timeline.end'), dataIndex: 'end', editor: 'number', width: 110, validate: (_v, row) => problemText(row, 'end') },
      { title: t('timeline.content'), dataIndex: 'content', editor: 'input', validate: (_v, row) => problemText(row, 'content') },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, lines, serverErrors, duration, now],
  );

  const save = async () => {
    if (id === undefined) return;
    // what this side can tell is wrong is marked on the lines and not sent; the server's last refusal
    // does not block a new try
    if (lines.some((l) => lineProblem(l, duration))) {
      table.current?.validate();
      feedback.warning(t('timeline.fixLines'));
      return;
    }
    try {
      const saved = await saving.mutateAsync({ resourceId: id, lines: toAsrLines(lines) });
      const next = toEditLines(saved);
      setLines(next);
      setBaseline(snapshot(next));
      setServerErrors(new Map());
      setGeneralError('');
      feedback.success(t('timeline.saved'));
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof RequestError && error.status === 422) {
        const at = locateServerError(message, lines, duration);
        if (at) {
          setServerErrors(new Map([[lines[at.index].uid, { field: at.field, message }]]));
          table.current?.validate();
        } else setGeneralError(message);
      } else if (!(error instanceof RequestError && error.kind === 'session')) {
        feedback.error(message);
      }
    }
  };

  const close = () => {
    if (!dirty) return onClose();
    feedback.confirm({
      title: t('timeline.discardTitle'),
      content: t('timeline.discard'),
      okText: t('timeline.discardOk'),
      cancelText: t('common:cancel'),
      onOk: onClose,
    });
  };

  const playing = activeLineIndex(lines, now);
  const media = query.data;

  return (
    <FullscreenModal
      open={target !== null}
      title={t('timeline.title', { name: target?.name ?? '' })}
      width={1100}
      onCancel={close}
      testId="timeline"
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close} data-testid="timeline-close">
            {t('timeline.close')}
          </Button>
          <Button type="primary" icon={<SaveOutlined />} loading={saving.isPending} disabled={!media} onClick={save} data-testid="timeline-save">
            {t('timeline.save')}
          </Button>
        </Space>
      }
    >
      {query.isPending && id !== undefined ? (
        <div style={{ padding: 48, textAlign: 'center' }}>
          <Spin />
        </div>
      ) : query.isError ? (
        <Empty description={query.error instanceof Error ? query.error.message : t('timeline.loadFailed')} />
      ) : media && target ? (
        <div className="cm-timeline" data-testid="timeline-body">
          <div className="cm-timeline-player">
            {target.kind === 'audio' ? (
              <audio
                ref={(el) => {
                  player.current = el;
                }}
                src={media.src}
                controls
                preload="metadata"
                style={{ width: '100%' }}
                onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)}
                onSeeked={(e) => setNow(e.currentTarget.currentTime)}
                data-testid="timeline-player"
              />
            ) : (
              <video
                ref={(el) => {
                  player.current = el;
                }}
                src={media.src}
                controls
                playsInline
                preload="metadata"
                onTimeUpdate={(e) => setNow(e.currentTarget.currentTime)}
                onSeeked={(e) => setNow(e.currentTarget.currentTime)}
                data-testid="timeline-player"
              />
            )}
            <div style={{ marginTop: 8 }}>
              <Typography.Text data-testid="timeline-now">
                {t('timeline.now', { time: formatClock(now), duration: formatClock(duration) })}
              </Typography.Text>
              {playing !== -1 ? (
                <Typography.Text type="secondary" style={{ marginLeft: 8 }} data-testid="timeline-playing">
                  {t('timeline.playingLine', { n: playing + 1 })}
                </Typography.Text>
              ) : null}
            </div>
            <Space style={{ marginTop: 8 }} wrap>
              <span data-testid="timeline-state">
                <AsrStateTag id={target.id} state={asrState} error={asrError} />
              </span>
              <RecognizeButton
                id={target.id}
                durationMs={Math.round(duration * 1000)}
                type="default"
                disabled={asrState === 'processing'}
              />
            </Space>
            {asrState === 'failed' && asrError ? (
              <Alert type="error" showIcon style={{ marginTop: 8 }} title={asrError} data-testid="timeline-asr-error" />
            ) : null}
            {asrState === 'processing' ? (
              <Alert type="info" showIcon style={{ marginTop: 8 }} title={t('timeline.recognizing')} />
            ) : null}
          </div>
          <div className="cm-timeline-lines">
            {generalError ? <Alert type="error" showIcon title={generalError} style={{ marginBottom: 8 }} data-testid="timeline-error" /> : null}
            <Typography.Text type="secondary" style={{ display: 'block', marginBottom: 8 }}>
              {t('timeline.hint', { count: lines.length })}
              {dirty ? <span data-testid="timeline-dirty"> · {t('timeline.unsaved')}</span> : null}
            </Typography.Text>
            <EditableTable<EditLine>
              ref={table}
              value={lines}
              onChange={change}
              columns={columns}
              newRow={() => newLineAt(currentTime(), duration)}
              max={2000}
              testId="timeline-lines"
            />
          </div>
        </div>
      ) : null}
    </FullscreenModal>
  );
}
