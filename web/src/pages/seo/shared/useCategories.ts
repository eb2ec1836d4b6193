import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { fetchCategories, seoKeys } from '@/api/seo';

/** The title categories (built-in and own) and their select options. */
export function useCategories(enabled = true) {
  const query = useQuery({ queryKey: seoKeys.categories, queryFn: fetchCategories, enabled, staleTime: 60_000, retry: false });
  const rows = useMemo(() => query.data?.rows ?? [], [query.data]);
  const options = useMemo(() => rows.map((c) => ({ value: c.id, label: c.name })), [rows]);
  return { rows, options, loading: query.isFetching, refetch: query.refetch };
}
