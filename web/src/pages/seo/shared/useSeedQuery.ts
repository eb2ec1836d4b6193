/** The seed word and platform of the search and mining pages, kept in the address (`?word=&platform=`). */
import { useMemo } from 'react';
import { useSearchParams } from 'react-router';
import type { SeoPlatform } from '@/api/seo/types';
import { PLATFORMS } from '../rules';

export function useSeedQuery() {
  const [search, setSearch] = useSearchParams();
  const word = (search.get('word') ?? '').trim();
  const raw = search.get('platform') as SeoPlatform | null;
  const platform: SeoPlatform = raw && PLATFORMS.includes(raw) ? raw : 'dy';
  const set = (next: { word?: string; platform?: SeoPlatform }) => {
    const w = next.word ?? word;
    const p = next.platform ?? platform;
    setSearch(w ? { word: w, platform: p } : { platform: p }, { replace: true });
  };
  const params = useMemo(() => (word ? { platform, word } : undefined), [platform, word]);
  return { word, platform, set, params };
}
