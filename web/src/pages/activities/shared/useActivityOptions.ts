import { useQuery } from '@tanstack/react-query';
import { activitiesKeys, fetchActivities } from '@/api/activities';
import type { Activity } from '@/api/activities/types';

/** Every activity as picker options (newest first, as the list answers); empty while loading or refused. */
export function useActivityOptions(enabled = true) {
  const query = useQuery({
    queryKey: activitiesKeys.options,
    queryFn: () => fetchActivities(),
    enabled,
    staleTime: 30_000,
    retry: false,
  });
  const rows: Activity[] = query.data?.rows ?? [];
  return { rows, options: rows.map((a) => ({ value: a.id, label: a.name })), loading: query.isFetching };
}
