import dayjs from 'dayjs';

/** Unix milliseconds -> 'YYYY-MM-DD HH:mm:ss' (empty for null). */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms === 0) return '';
  return dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
}

export function formatDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms === 0) return '';
  return dayjs(ms).format('YYYY-MM-DD');
}
