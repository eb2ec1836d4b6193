/**
 * Writes as TanStack Query mutations: a write that succeeds marks the reads under its area's query
 * keys stale, so the ones on screen read again (instead of each page refetching by hand).
 */
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';

export function useWrite<A, R>(write: (input: A) => Promise<R>, ...stale: QueryKey[]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: () => {
      // not awaited: the caller goes on (closes its dialog) while the lists read again
      for (const queryKey of stale) void client.invalidateQueries({ queryKey });
    },
  });
}
