/**
 * Live render progress for the rows a library page shows (docs/api-clip.md "Progress"):
 * - `useRenderProgress`: `variant` events of `GET /api/events` (the shared connection of
 *   api/materials/events.ts) are laid over the shown rows; when a shown row settles (success / failed)
 *   the table reloads once (for its video, cover and duration). While the stream is down it falls back
 *   to `useRenderPolling`.
 * - `useRenderPolling`: every `interval` ms it asks the list for the caller's processing variants and
 *   merges their progress into the shown rows; when a shown row is no longer processing (it succeeded,
 *   failed or was deleted) the table reloads once.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchVariants } from '@/api/clip';
import type { Variant, VariantEvent } from '@/api/clip/types';
import { subscribeVariantEvents, type StreamStatus } from '@/api/materials/events';

export const POLL_MS = 2000;

export interface RenderPolling {
  /** Give DataTable's onLoad every page it loads. */
  onLoad: (rows: readonly Variant[]) => void;
  /** A shown row with its latest progress. */
  merge: (row: Variant) => Variant;
  /** Ids of the shown rows still rendering. */
  processing: number[];
}

/** `enabled` false (the event stream is up): no requests, the shown rows stay as loaded. */
export function useRenderPolling(refresh: () => void, interval = POLL_MS, enabled = true): RenderPolling {
  const [shown, setShown] = useState<number[]>([]);
  const [live, setLive] = useState<Map<number, Variant>>(new Map());
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;

  const onLoad = useCallback((rows: readonly Variant[]) => {
    const ids = rows.filter((r) => r.state === 'processing').map((r) => r.id);
    setShown((prev) => (prev.length === ids.length && prev.every((id, i) => id === ids[i]) ? prev : ids));
  }, []);

  const key = shown.join(',');
  useEffect(() => {
    if (!shown.length || !enabled) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const data = await fetchVariants({ state: 'processing', limit: 1000 });
        if (stopped) return;
        const map = new Map(data.rows.map((r) => [r.id, r]));
        setLive(map);
        if (shown.some((id) => !map.has(id))) {
          refreshRef.current();
          return; // the reload's onLoad starts the next round
        }
      } catch {
        /* the request wrapper toasted; try again */
      }
      if (!stopped) timer = setTimeout(tick, interval);
    };
    timer = setTimeout(tick, interval);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, interval, enabled]);

  const merge = useCallback(
    (row: Variant) => {
      if (row.state !== 'processing') return row;
      const now = live.get(row.id);
      return now && now.progress >= row.progress ? { ...row, progress: now.progress } : row;
    },
    [live],
  );

  return useMemo(() => ({ onLoad, merge, processing: shown }), [onLoad, merge, shown]);
}

/** After a settled event the reload waits this long (several variants often finish together). */
const SETTLE_DEBOUNCE_MS = 300;

/** A shown row with the latest event about it laid over (events older than the row are ignored). */
export function mergeVariantEvent(row: Variant, ev: VariantEvent | undefined): Variant {
  if (!ev) return row;
  if (row.updated_at && ev.updated_at < row.updated_at) return row;
  const progress = ev.state === 'processing' && row.state === 'processing' ? Math.max(ev.progress, row.progress) : ev.progress;
  return { ...row, state: ev.state, progress, error: ev.error, duration_ms: ev.duration_ms || row.duration_ms };
}

export interface RenderProgress extends RenderPolling {
  /** The event stream's state; polling runs only while it is not open. */
  status: StreamStatus;
}

/** Progress from `variant` events, polling every `interval` ms only while the stream is down. */
export function useRenderProgress(refresh: () => void, interval = POLL_MS): RenderProgress {
  const [status, setStatus] = useState<StreamStatus>('connecting');
  const [events, setEvents] = useState<ReadonlyMap<number, VariantEvent>>(() => new Map());
  const [rows, setRows] = useState<readonly Variant[]>([]);
  const shownRef = useRef<ReadonlyMap<number, Variant>>(new Map());
  const refreshRef = useRef(refresh);
  refreshRef.current = refresh;
  const polling = useRenderPolling(refresh, interval, status !== 'open');

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    const unsubscribe = subscribeVariantEvents({
      onStatus: setStatus,
      onVariants: (list) => {
        setEvents((prev) => {
          const next = new Map(prev);
          for (const ev of list) {
            const old = next.get(ev.id);
            if (!old || ev.updated_at >= old.updated_at) next.set(ev.id, ev);
          }
          return next;
        });
        // a shown row finished (or failed): reload once for its video, cover and duration
        const shown = shownRef.current;
        if (list.some((ev) => ev.state !== 'processing' && shown.get(ev.id)?.state === 'processing')) {
          clearTimeout(timer);
          timer = setTimeout(() => refreshRef.current(), SETTLE_DEBOUNCE_MS);
        }
      },
    });
    return () => {
      clearTimeout(timer);
      unsubscribe();
    };
  }, []);

  const pollingOnLoad = polling.onLoad;
  const onLoad = useCallback(
    (list: readonly Variant[]) => {
      shownRef.current = new Map(list.map((r) => [r.id, r]));
      setRows(list);
      pollingOnLoad(list);
    },
    [pollingOnLoad],
  );

  const pollingMerge = polling.merge;
  const merge = useCallback((row: Variant) => mergeVariantEvent(pollingMerge(row), events.get(row.id)), [pollingMerge, events]);

  const processing = useMemo(() => rows.filter((r) => r.state === 'processing' && merge(r).state === 'processing').map((r) => r.id), [rows, merge]);

  return useMemo(() => ({ onLoad, merge, processing, status }), [onLoad, merge, processing, status]);
}
