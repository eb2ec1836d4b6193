/** Display helpers of the material pages. */

/** Bytes -> '512 B', '1.5 KB', '12.3 MB', '1.02 GB'. */
export function formatSize(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes) || bytes < 0) return '';
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value >= 100 ? value.toFixed(0) : value >= 10 ? value.toFixed(1) : value.toFixed(2)} ${units[unit]}`;
}

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
