/** Milliseconds -> m:ss (empty for none). */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms) || ms <= 0) return '';
  const total = Math.round(ms / 1000);
  return `${Math.floor(total / 60)}:${String(total % 60).padStart(2, '0')}`;
}

/** 1234567 -> 1,234,567 */
export function formatCount(n: number | null | undefined): string {
  return (n ?? 0).toLocaleString('en-US');
}
