/**
 * NFC tap-to-post tags, their titles, video pools and figures (docs/api-activities.md "NFC tap-to-post").
 * Generated from the server's OpenAPI
 * document (`make api-types` writes ../schema.d.ts).
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

export type TagPlatform = Schemas['DyOnly'];
/** `project`: the finished videos of a mixing project; `group`: the uploaded videos of a shot group. */
export type PoolKind = Schemas['PoolKind'];

export type Tag = Schemas['Tag'];

export type TagReq = Schemas['TagReq'];

export type TagTitle = Schemas['TagTitle'];

export type Pool = Schemas['PoolView'];

export type Pools = Schemas['Pools'];

export type StatsTotals = Schemas['StatTotals'];

export type StatsDay = Schemas['StatDay'];

export type StatsRange = 7 | 30;

export type TagStats = Schemas['TagStats'];
