import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emptyTaskForm, toTaskReq } from '@/pages/matrix/rules';
import { formatDate, formatTime, fromMerchantPicker, merchantPicker, merchantToday } from './format';

// Node reads TZ again whenever it is assigned: the tests move the "browser" between zones.
const env = (globalThis as unknown as { process: { env: Record<string, string | undefined> } }).process.env;

// 2026-11-23 15:35 China time (UTC+8) = 07:35 UTC.
const AT_1535 = Date.UTC(2026, 10, 23, 7, 35);

describe.each(['America/New_York', 'UTC', 'Asia/Shanghai', 'Pacific/Kiritimati'])('times in the merchants zone, browser in %s', (zone) => {
  const before = env.TZ;
  beforeAll(() => {
    env.TZ = zone;
  });
  afterAll(() => {
    if (before === undefined) delete env.TZ;
    else env.TZ = before;
  });

  it('the browser zone is really in effect', () => {
    const offset = new Date(AT_1535).getTimezoneOffset();
    expect(zone === 'America/New_York' ? offset === 300 : zone === 'UTC' ? offset === 0 : true).toBe(true);
  });

  it('shows a post planned for 15:35 China time as 15:35, whatever the browser zone', () => {
    expect(formatTime(AT_1535)).toBe('2026-11-23 15:35:00');
    // 23:30 China time is still the 23rd there (the 23rd 15:30 UTC, the 23rd 10:30 in New York).
    expect(formatDate(Date.UTC(2026, 10, 23, 15, 30))).toBe('2026-11-23');
    // 00:30 China time on the 24th is the 23rd in UTC and in New York.
    expect(formatTime(Date.UTC(2026, 10, 23, 16, 30))).toBe('2026-11-24 00:30:00');
  });

  it('a new task starts on the China date, and its times go to the server as entered', () => {
    // 20:00 UTC on the 23rd = 04:00 on the 24th in China.
    const today = merchantToday(Date.UTC(2026, 10, 23, 20, 0));
    expect(today.format('YYYY-MM-DD')).toBe('2026-11-24');
    const v = emptyTaskForm(today);
    const req = toTaskReq({ ...v, time_mode: 'timed', daily_quantity: 1, times: [today.hour(15).minute(35)] });
    expect([req.start_date, req.times]).toEqual(['2026-11-24', ['15:35']]);
  });

  it('a date-time picker shows and takes China time (an activity window)', () => {
    const picked = merchantPicker(AT_1535);
    expect(picked.format('YYYY-MM-DD HH:mm')).toBe('2026-11-23 15:35');
    expect(fromMerchantPicker(picked)).toBe(AT_1535);
    // 00:30 on the 24th typed into the picker is 16:30 UTC on the 23rd
    expect(fromMerchantPicker(picked.date(24).hour(0).minute(30))).toBe(Date.UTC(2026, 10, 23, 16, 30));
  });
});
