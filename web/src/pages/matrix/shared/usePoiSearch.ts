import { useEffect, useRef, useState } from 'react';
import type { Poi } from '@/api/matrix/types';

/** Debounced remote POI search for a Select (`getPoiId` on accounts, `getPOIAddress` on tasks). */
export function usePoiSearch(search: (keyword: string, city?: string) => Promise<{ rows: Poi[] }>, city?: string) {
  const [keyword, setKeyword] = useState('');
  const [rows, setRows] = useState<Poi[]>([]);
  const [loading, setLoading] = useState(false);
  const seq = useRef(0);

  useEffect(() => {
    const word = keyword.trim();
    if (!word) {
      setRows([]);
      return;
    }
    const mine = ++seq.current;
    const timer = setTimeout(async () => {
      setLoading(true);
      try {
        const res = await search(word, city?.trim() || undefined);
        if (mine === seq.current) setRows(res.rows ?? []);
      } catch {
        if (mine === seq.current) setRows([]);
      } finally {
        if (mine === seq.current) setLoading(false);
      }
    }, 300);
    return () => clearTimeout(timer);
  }, [keyword, city, search]);

  return { rows, loading, onSearch: setKeyword };
}
