/**
 * Live state of the materials a page shows: progress events from `GET /api/events` are laid over the
 * loaded rows; a row that settles (ready / failed, or recognition finished) asks the page to reload.
 * While the stream is down and something is still processing, the page polls every 2 s instead.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { subscribeMediaEvents, type StreamStatus } from '@/api/materials/events';
import type { MediaEvent, MediaFile } from '@/api/materials/types';

export const POLL_MS = 2000;
const SETTLE_DEBOUNCE_MS = 300;

type Live = Pick<MediaFile, 'id' | 'state' | 'progress' | 'error' | 'asr_state'>;

/** A row with the latest event about it laid over (events older than the row are ignored). */
export function mergeLive<T extends Live & { updated_at?: number }>(row: T, live: ReadonlyMap<number, MediaEvent>): T {
  const ev = live.get(row.id);
  if (!ev) return row;
  if (row.updated_at && ev.updated_at < row.updated_at) return row;
  return { ...row, state: ev.state, progress: ev.progress, error: ev.error, asr_state: ev.asr_state };
}

export function isBusy(row: Pick<MediaFile, 'state' | 'asr_state'>): boolean {
  return row.state === 'processing' || row.asr_state === 'processing';
}

export interface MediaProgress {
  live: ReadonlyMap<number, MediaEvent>;
  status: StreamStatus;
}

/**
 * @param onSettled called (debounced) after an event reports something finished.
 */
export function useMediaProgress(onSettled?: (rows: MediaEvent[]) => void): MediaProgress {
  const [live, setLive] = useState<ReadonlyMap<number, MediaEvent>>(() => new Map());
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const settled = useRef(onSettled);
  settled.current = onSettled;

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: MediaEvent[] = [];
    const unsubscribe = subscribeMediaEvents({
      onStatus: setStatus,
      onEvents: (rows) => {
        setLive((prev) => {
          const next = new Map(prev);
          for (const r of rows) next.set(r.id, r);
          return next;
        });
        const done = rows.filter((r) => !isBusy(r));
        if (done.length) {
          pending = [...pending, ...done];
          clearTimeout(timer);
          timer = setTimeout(() => {
            const batch = pending;
            pending = [];
            settled.current?.(batch);
          }, SETTLE_DEBOUNCE_MS);
        }
      },
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, []);

  return { live, status };
}

/** Calls `tick` every `ms` while `active`. */
export function usePolling(active: boolean, tick: () => void, ms = POLL_MS): void {
  const fn = useRef(tick);
  fn.current = tick;
  useEffect(() => {
    if (!active) return;
    const id = setInterval(() => fn.current(), ms);
    return () => clearInterval(id);
  }, [active, ms]);
}

/**
 * Progress for a DataTable of materials: returns `merge` for the column renders, `onLoad` for the
 * table, and keeps polling `refresh` while the stream is down and a shown row is still busy.
 */
export function useLiveRows<T extends Live & { updated_at?: number }>(refresh: () => void) {
  const [rows, setRows] = useState<T[]>([]);
  const progress = useMediaProgress(useCallback(
    (done: MediaEvent[]) => {
      // reload when something shown (or just uploaded) settled, to get posters, durations …
      if (done.length) refresh();
    },
    [refresh],
  ));
  const merge = useCallback((row: T) => mergeLive(row, progress.live), [progress.live]);
  const busy = rows.some((r) => isBusy(mergeLive(r, progress.live)));
  usePolling(progress.status === 'down' && busy, refresh);
  const onLoad = useCallback((list: { rows: T[] }) => setRows(list.rows), []);
  return { ...progress, merge, onLoad, rows, busy };
}
