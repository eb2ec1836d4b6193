/**
 * Live render progress for the rows a library page shows (docs/api-clip.md: variants are not in
 * /api/events yet — poll every 2 s while any row is processing). Every `interval` ms it asks the list
 * for the caller's processing variants and merges their progress into the shown rows; when a shown
 * row is no longer processing (it succeeded, failed or was deleted) the table reloads once.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { fetchVariants } from '@/api/clip';
import type { Variant } from '@/api/clip/types';

export const POLL_MS = 2000;

export interface RenderPolling {
  /** Give DataTable's onLoad every page it loads. */
  onLoad: (rows: readonly Variant[]) => void;
  /** A shown row with its latest progress. */
  merge: (row: Variant) => Variant;
  /** Ids of the shown rows still rendering. */
  processing: number[];
}

export function useRenderPolling(refresh: () => void, interval = POLL_MS): RenderPolling {
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
    if (!shown.length) return;
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
  }, [key, interval]);

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
