/**
 * Lottery activities, their coupons and the draw log (docs/api-activities.md). The server's answers are
 * generated from its OpenAPI document (`make api-types` writes ../schema.d.ts); the string unions the pages
 * switch on are narrowings.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type ActivityState = Schemas['ActivityState'];
/** `anyone`: whoever opens the public page; `posters`: a customer whose NFC post came back, one draw per post. */
export type Who = Schemas['ActivityWho'];
export type PrizeKind = Schemas['PrizeKind'];
export type CouponState = Schemas['CouponState'];
export type DrawSource = Schemas['DrawSource'];
export type ExportFormat = 'xlsx' | 'csv';

export type Prize = Schemas['Prize'];

export type Activity = Schemas['Activity'];

/** A prize as `add` / `edit` take it; an existing prize keeps its `id`. */
export type PrizeReq = Schemas['PrizeReq'];

export type ActivityReq = Schemas['ActivityReq'];

export type Coupon = Schemas['Coupon'];

export type Draw = Schemas['Draw'];

/** Filters of an export: the list's plain params and its `filterObj`. */
export interface ExportFilters {
  activity_id?: number;
  state?: CouponState;
  code?: string;
  filterObj?: Record<string, string>;
}
