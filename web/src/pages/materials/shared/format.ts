/** Display helpers of the material pages. */

export { formatSize } from '@/utils/format';

/** Milliseconds -> 'm:ss' (or 'h:mm:ss'); '' for nothing. */
export function formatDuration(ms: number | null | undefined): string {
  if (!ms || ms < 0 || !Number.isFinite(ms)) return '';
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  const pad = (n: number) => String(n).padStart(2, '0');
  return h ? `${h}:${pad(m)}:${pad(s)}` : `${m}:${pad(s)}`;
}

/** Milliseconds -> seconds with one decimal ('12.3'). */
export function seconds(ms: number | null | undefined): string {
  if (!ms || ms < 0) return '0';
  return String(Math.round(ms / 100) / 10);
}

/** Seconds on the timeline: '1:02.35'. */
export function formatClock(sec: number): string {
  if (!Number.isFinite(sec) || sec < 0) return '0:00.00';
  const m = Math.floor(sec / 60);
  const s = sec - m * 60;
  return `${m}:${s.toFixed(2).padStart(5, '0')}`;
}

/** Rounds seconds to centiseconds (what the timeline edits). */
export const roundSec = (sec: number) => Math.round(sec * 100) / 100;
