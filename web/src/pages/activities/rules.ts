/**
 * The lottery activity's client-side rules (docs/api-activities.md) and the mapping between the activity
 * form and the contract's ActivityReq. Pure functions only; the server checks the same rules again and
 * answers 422 with `data.field`.
 */
import { limits } from '@/api/limits';
import type { Dayjs } from 'dayjs';
import type { Activity, ActivityReq, PrizeKind, Who } from '@/api/activities/types';
import { fromMerchantPicker, merchantPicker, merchantToday } from '@/utils/format';

/** Not in the contract: the activity name is held to the release task's 50. */
export const NAME_MAX = limits.activities.NAME_MAX;
export const PER_PERSON_MAX = limits.activities.PER_PERSON_MAX;
export const PER_DAY_MAX = limits.activities.PER_DAY_MAX;
export const RULES_MAX = limits.activities.RULES_MAX;
export const PRIZE_NAME_MAX = limits.activities.PRIZE_NAME_MAX;
export const PRIZE_DESCRIPTION_MAX = limits.activities.PRIZE_DESCRIPTION_MAX;
export const STOCK_MAX = limits.activities.STOCK_MAX;
export const PRIZE_LIMIT_MAX = limits.activities.PRIZE_LIMIT_MAX;
export const VALID_DAYS_MAX = limits.activities.VALID_DAYS_MAX;
export const ODDS_MIN = limits.activities.ODDS_MIN;
export const ODDS_MAX = limits.activities.ODDS_MAX;
export const PRIZES_MAX = limits.activities.PRIZES_MAX;
export const COLOR_RE = /^#[0-9a-fA-F]{6}$/;
export const DEFAULT_COLOR = '#E53935';
export const WHO: Who[] = ['anyone', 'posters'];
export const PRIZE_KINDS: PrizeKind[] = ['coupon', 'thanks'];

/** Characters as the server counts them (code points: an emoji is one). */
export function charCount(text: string | null | undefined): number {
  return Array.from(text ?? '').length;
}

const isInt = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n);
/** In hundredths, so that 33.33 + 33.33 + 33.34 is exactly 100. */
export const cents = (odds: number | null | undefined): number => Math.round((Number(odds) || 0) * 100);

// ---- prizes

export interface PrizeFormValues {
  /** Kept on edit: the server matches prizes by id. */
  id?: number;
  /** Coupons issued so far (edit only; not sent). */
  issued?: number;
  name: string;
  kind: PrizeKind;
  odds: number | null;
  stock: number | null;
  per_person: number | null;
  per_day: number | null;
  valid_days: number | null;
  description: string;
}

export type OddsProblem = 'required' | 'range' | 'decimals' | null;

/** One prize's odds: a percentage 0.01..100 with at most two decimals. */
export function oddsProblem(odds: number | null | undefined): OddsProblem {
  if (odds === null || odds === undefined || Number.isNaN(odds)) return 'required';
  if (odds < ODDS_MIN || odds > ODDS_MAX) return 'range';
  if (Math.abs(odds * 100 - Math.round(odds * 100)) > 1e-6) return 'decimals';
  return null;
}

/** A whole number in min..max (null when it is). */
export function rangeProblem(n: number | null | undefined, min: number, max: number): 'required' | 'range' | null {
  if (n === null || n === undefined || Number.isNaN(n)) return 'required';
  if (!isInt(n) || n < min || n > max) return 'range';
  return null;
}

/** The odds of all prizes together, as a percentage with two decimals. */
export function oddsTotal(prizes: ReadonlyArray<Pick<PrizeFormValues, 'odds'> | undefined> | undefined): number {
  return (prizes ?? []).reduce((sum, p) => sum + cents(p?.odds), 0) / 100;
}

/** What is left for "thanks for taking part" (never below 0). */
export function thanksOdds(prizes: ReadonlyArray<Pick<PrizeFormValues, 'odds'> | undefined> | undefined): number {
  return Math.max(0, 10_000 - Math.round(oddsTotal(prizes) * 100)) / 100;
}

export type PrizesProblem = 'empty' | 'tooMany' | 'noCoupon' | 'oddsOver' | null;

/** The list's rules: 1..10 prizes, at least one coupon prize, the odds together ≤ 100. */
export function prizesProblem(prizes: ReadonlyArray<Pick<PrizeFormValues, 'kind' | 'odds'> | undefined> | undefined): PrizesProblem {
  const list = (prizes ?? []).filter(Boolean) as Array<Pick<PrizeFormValues, 'kind' | 'odds'>>;
  if (!list.length) return 'empty';
  if (list.length > PRIZES_MAX) return 'tooMany';
  if (!list.some((p) => p.kind === 'coupon')) return 'noCoupon';
  if (list.reduce((s, p) => s + cents(p.odds), 0) > ODDS_MAX * 100) return 'oddsOver';
  return null;
}

/** A coupon prize's stock: 1..1,000,000 and never below what it has issued. */
export function stockProblem(stock: number | null | undefined, issued = 0): 'required' | 'range' | 'belowIssued' | null {
  const p = rangeProblem(stock, 1, STOCK_MAX);
  if (p) return p;
  if ((stock as number) < issued) return 'belowIssued';
  return null;
}

/** Two decimals, without float noise ('33.33', '10', '0.5'). */
export function formatOdds(n: number): string {
  return String(Math.round(n * 100) / 100);
}

// ---- the activity

export interface ActivityFormValues {
  name: string;
  /** Picker values: their wall clock is China time. */
  range: [Dayjs, Dayjs] | null;
  who: Who;
  per_person: number | null;
  per_day: number | null;
  color: string;
  rules_text: string;
  prizes: PrizeFormValues[];
}

export function emptyPrize(kind: PrizeKind = 'coupon'): PrizeFormValues {
  return kind === 'coupon'
    ? { name: '', kind, odds: 10, stock: 100, per_person: 1, per_day: 1, valid_days: 30, description: '' }
    : { name: '', kind, odds: 10, stock: null, per_person: null, per_day: null, valid_days: null, description: '' };
}

/** A new activity: from today (China) to 30 days on, anyone may draw 3 times, once a day, one coupon prize. */
export function emptyActivityForm(today: Dayjs = merchantToday()): ActivityFormValues {
  const start = today.startOf('day');
  return {
    name: '',
    range: [start, start.add(30, 'day').hour(23).minute(59).second(59)],
    who: 'anyone',
    per_person: 3,
    per_day: 1,
    color: DEFAULT_COLOR,
    rules_text: '',
    prizes: [emptyPrize('coupon')],
  };
}

/** The form's values of a saved activity. */
export function activityToForm(a: Activity): ActivityFormValues {
  return {
    name: a.name,
    range: [merchantPicker(a.starts_at), merchantPicker(a.ends_at)],
    who: a.who,
    per_person: a.per_person,
    per_day: a.per_day,
    color: a.color || DEFAULT_COLOR,
    rules_text: a.rules_text ?? '',
    prizes: a.prizes.map((p) => ({
      id: p.id,
      issued: p.issued,
      name: p.name,
      kind: p.kind,
      odds: p.odds,
      stock: p.kind === 'coupon' ? p.stock : null,
      per_person: p.kind === 'coupon' ? p.per_person : null,
      per_day: p.kind === 'coupon' ? p.per_day : null,
      valid_days: p.kind === 'coupon' ? p.valid_days : null,
      description: p.description ?? '',
    })),
  };
}

const text = (v: string | null | undefined) => (v ?? '').trim();
const num = (v: number | null | undefined) => (typeof v === 'number' && !Number.isNaN(v) ? v : 0);

/** The contract's ActivityReq from the form (a `thanks` prize sends 0 for its stock and limits). */
export function toActivityReq(v: ActivityFormValues): ActivityReq {
  const [from, to] = v.range ?? [];
  return {
    name: text(v.name),
    starts_at: from ? fromMerchantPicker(from) : 0,
    ends_at: to ? fromMerchantPicker(to) : 0,
    who: v.who,
    per_person: num(v.per_person),
    per_day: num(v.per_day),
    color: text(v.color).toUpperCase(),
    rules_text: text(v.rules_text),
    prizes: (v.prizes ?? []).map((p) => {
      const coupon = p.kind === 'coupon';
      return {
        ...(p.id ? { id: p.id } : {}),
        name: text(p.name),
        kind: p.kind,
        odds: Math.round(num(p.odds) * 100) / 100,
        stock: coupon ? num(p.stock) : 0,
        per_person: coupon ? num(p.per_person) : 0,
        per_day: coupon ? num(p.per_day) : 0,
        description: text(p.description),
        valid_days: coupon ? num(p.valid_days) : 0,
      };
    }),
  };
}

/**
 * The form field a server 422 `data.field` names: the window's ends are the range picker, a prize's
 * field (`prizes[1].odds`, `prizes.1.odds`) its cell, anything else itself.
 */
export function formPathOf(field: string): string | Array<string | number> {
  if (field === 'starts_at' || field === 'ends_at') return 'range';
  const prize = /^prizes(?:\[(\d+)\]|\.(\d+))(?:\.(\w+))?$/.exec(field);
  if (prize) {
    const index = Number(prize[1] ?? prize[2]);
    return prize[3] ? ['prizes', index, prize[3]] : 'prizes';
  }
  return field;
}
