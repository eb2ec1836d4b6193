import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import type { Activity } from '@/api/activities/types';
import {
  activityToForm,
  emptyActivityForm,
  emptyPrize,
  formPathOf,
  oddsProblem,
  oddsTotal,
  prizesProblem,
  rangeProblem,
  stockProblem,
  thanksOdds,
  toActivityReq,
} from './rules';

const coupon = (odds: number | null) => ({ ...emptyPrize('coupon'), odds });
const thanks = (odds: number | null) => ({ ...emptyPrize('thanks'), odds });

describe('prize odds (a percentage 0.01..100, two decimals at most, ≤ 100 together)', () => {
  it('checks one prize', () => {
    expect(oddsProblem(null)).toBe('required');
    expect(oddsProblem(0)).toBe('range');
    expect(oddsProblem(0.01)).toBeNull();
    expect(oddsProblem(100)).toBeNull();
    expect(oddsProblem(100.01)).toBe('range');
    expect(oddsProblem(120)).toBe('range');
    expect(oddsProblem(12.345)).toBe('decimals');
    expect(oddsProblem(0.29)).toBeNull(); // 0.29 * 100 is 28.999999999999996
  });

  it('sums in hundredths and leaves the rest to "thanks for taking part"', () => {
    expect(oddsTotal([coupon(33.33), coupon(33.33), thanks(33.34)])).toBe(100);
    expect(thanksOdds([coupon(33.33), coupon(33.33), thanks(33.34)])).toBe(0);
    expect(oddsTotal([coupon(0.1), coupon(0.2)])).toBe(0.3);
    expect(thanksOdds([coupon(10), thanks(5.5)])).toBe(84.5);
    expect(thanksOdds([coupon(70), coupon(50)])).toBe(0);
    expect(thanksOdds([])).toBe(100);
    expect(thanksOdds([coupon(null)])).toBe(100);
  });

  it('checks the list: 1..10 prizes, a coupon prize among them, odds ≤ 100 together', () => {
    expect(prizesProblem([])).toBe('empty');
    expect(prizesProblem([thanks(10)])).toBe('noCoupon');
    expect(prizesProblem([coupon(60), thanks(40.01)])).toBe('oddsOver');
    expect(prizesProblem([coupon(60), thanks(40)])).toBeNull();
    expect(prizesProblem(Array.from({ length: 11 }, () => coupon(1)))).toBe('tooMany');
    expect(prizesProblem(Array.from({ length: 10 }, () => coupon(10)))).toBeNull();
  });
});

describe('limits', () => {
  it('whole numbers in range', () => {
    expect(rangeProblem(null, 1, 100)).toBe('required');
    expect(rangeProblem(0, 1, 100)).toBe('range');
    expect(rangeProblem(1.5, 1, 100)).toBe('range');
    expect(rangeProblem(100, 1, 100)).toBeNull();
  });

  it("a coupon prize's stock never goes below what it issued", () => {
    expect(stockProblem(10, 12)).toBe('belowIssued');
    expect(stockProblem(12, 12)).toBeNull();
    expect(stockProblem(1_000_001)).toBe('range');
    expect(stockProblem(null)).toBe('required');
  });
});

describe('form <-> request', () => {
  // 2026-11-23 00:00 China time
  const today = dayjs('2026-11-23');

  it('a new activity runs from today 00:00 to 30 days on 23:59:59, China time, and sends unix ms', () => {
    const v = emptyActivityForm(today);
    const req = toActivityReq({ ...v, name: ' Spring ', color: '#e53935', prizes: [{ ...coupon(12.5), name: ' 10 off ' }, { ...thanks(20), name: 'Again', description: ' x ' }] });
    expect(req.starts_at).toBe(Date.UTC(2026, 10, 22, 16));
    expect(req.ends_at).toBe(Date.UTC(2026, 11, 23, 15, 59, 59));
    expect(req).toMatchObject({ name: 'Spring', who: 'anyone', per_person: 3, per_day: 1, color: '#E53935', rules_text: '' });
    expect(req.prizes).toEqual([
      { name: '10 off', kind: 'coupon', odds: 12.5, stock: 100, per_person: 1, per_day: 1, description: '', valid_days: 30 },
      { name: 'Again', kind: 'thanks', odds: 20, stock: 0, per_person: 0, per_day: 0, description: 'x', valid_days: 0 },
    ]);
  });

  it('an edited activity keeps its prizes\' ids and shows its window in China time', () => {
    const a: Activity = {
      id: 5,
      name: 'A',
      starts_at: Date.UTC(2026, 0, 1, 2), // 10:00 China time
      ends_at: Date.UTC(2026, 0, 2, 2),
      who: 'posters',
      per_person: 5,
      per_day: 2,
      color: '#112233',
      rules_text: 'r',
      prizes: [{ id: 9, name: 'P', kind: 'coupon', odds: 5, stock: 10, issued: 3, per_person: 1, per_day: 1, description: 'd', valid_days: 7 }],
      state: 'running',
      public_url: 'http://x/t/a/k',
      draws: 0,
      wins: 0,
      redeemed: 0,
      created_at: 0,
    };
    const v = activityToForm(a);
    expect(v.range?.[0].format('YYYY-MM-DD HH:mm')).toBe('2026-01-01 10:00');
    expect(v.prizes[0]).toMatchObject({ id: 9, issued: 3 });
    const req = toActivityReq(v);
    expect(req.starts_at).toBe(a.starts_at);
    expect(req.ends_at).toBe(a.ends_at);
    expect(req.prizes[0]).toEqual({ id: 9, name: 'P', kind: 'coupon', odds: 5, stock: 10, per_person: 1, per_day: 1, description: 'd', valid_days: 7 });
  });

  it('puts a server 422 on its field', () => {
    expect(formPathOf('starts_at')).toBe('range');
    expect(formPathOf('ends_at')).toBe('range');
    expect(formPathOf('prizes')).toBe('prizes');
    expect(formPathOf('prizes[1].odds')).toEqual(['prizes', 1, 'odds']);
    expect(formPathOf('prizes.0.stock')).toEqual(['prizes', 0, 'stock']);
    expect(formPathOf('per_day')).toBe('per_day');
  });
});
