/**
 * Writes as TanStack Query mutations: a write that succeeds marks the reads under its area's query
 * keys stale, so the ones on screen read again (instead of each page refetching by hand). The pending
 * state a button shows is the mutation's `isPending`; a refused write is toasted by the request wrapper
 * (or shown at its field when the call is silent), so a mutation has no error handling of its own.
 */
import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';

/** A key the write marks stale, or one named by what was written (the dictionary saved). */
export type StaleKey<A, R> = QueryKey | ((result: R | undefined, input: A) => QueryKey);

function useStaleWrite<A, R>(write: (input: A) => Promise<R>, stale: StaleKey<A, R>[], evenRefused: boolean) {
  const client = useQueryClient();
  // not awaited: the caller goes on (closes its dialog) while the lists read again
  const markStale = (result: R | undefined, input: A) => {
    for (const key of stale) void client.invalidateQueries({ queryKey: typeof key === 'function' ? key(result, input) : key });
  };
  return useMutation({
    // the input only: TanStack passes a context second, which an optional second parameter would take
    mutationFn: (input: A) => write(input),
    onSuccess: (result: R, input: A) => markStale(result, input),
    onError: evenRefused ? (_: unknown, input: A) => markStale(undefined, input) : undefined,
  });
}

export function useWrite<A, R>(write: (input: A) => Promise<R>, ...stale: StaleKey<A, R>[]) {
  return useStaleWrite(write, stale, false);
}

/** A write whose refusal may still have changed the rows (a renewal that finds the authorization revoked marks the account expired). */
export function useWriteSettled<A, R>(write: (input: A) => Promise<R>, ...stale: StaleKey<A, R>[]) {
  return useStaleWrite(write, stale, true);
}

/**
 * Marks the keys stale after a write that does not go through a mutation (an upload queue with its
 * own progress and retries): the reads on screen under them read again.
 */
export function useMarkStale(...stale: QueryKey[]) {
  const client = useQueryClient();
  const keys = JSON.stringify(stale);
  // one function while the keys stay the same: pages hand it to effects and callbacks
  return useCallback(() => {
    for (const queryKey of JSON.parse(keys) as QueryKey[]) void client.invalidateQueries({ queryKey });
  }, [client, keys]);
}
