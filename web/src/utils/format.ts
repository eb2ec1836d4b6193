import dayjs, { type Dayjs } from 'dayjs';
import utc from 'dayjs/plugin/utc';

dayjs.extend(utc);

/**
 * The merchants' time zone: China time (UTC+8), the zone the server plans and reads dates in. Every
 * time the console shows or takes (release times, plans, lists, filters) is in this zone, whatever
 * the browser's zone is, and forms name it (`common:timeZone`). A browser in UTC used to show a 15:35
 * post as 07:35.
 */
export const MERCHANT_UTC_OFFSET_MIN = 8 * 60;

/** An instant (unix ms, default now) as a Dayjs in the merchants' time zone. */
export function merchantTime(ms: number = Date.now()): Dayjs {
  return dayjs(ms).utcOffset(MERCHANT_UTC_OFFSET_MIN);
}

/**
 * Today's date in the merchants' time zone, as a local-midnight Dayjs for date pickers (a picker's
 * value is a calendar date; `format('YYYY-MM-DD')` gives the China date back).
 */
export function merchantToday(ms: number = Date.now()): Dayjs {
  return dayjs(merchantTime(ms).format('YYYY-MM-DD'));
}

/** Unix milliseconds -> 'YYYY-MM-DD HH:mm:ss' in the merchants' time zone (empty for null). */
export function formatTime(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms === 0) return '';
  return merchantTime(ms).format('YYYY-MM-DD HH:mm:ss');
}

export function formatDate(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || ms === 0) return '';
  return merchantTime(ms).format('YYYY-MM-DD');
}

/**
 * An instant as a date-time picker's value: a browser-local Dayjs whose wall clock reads the China
 * time (pickers show and edit the local wall clock). `fromMerchantPicker` reads it back.
 */
export function merchantPicker(ms: number): Dayjs {
  return dayjs(merchantTime(ms).format('YYYY-MM-DDTHH:mm:ss'));
}

/** A picker's wall clock, read as China time, as unix milliseconds (whatever the browser's zone). */
export function fromMerchantPicker(value: Dayjs): number {
  return dayjs.utc(value.format('YYYY-MM-DDTHH:mm:ss')).valueOf() - MERCHANT_UTC_OFFSET_MIN * 60_000;
}

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
