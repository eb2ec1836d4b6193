/**
 * SEO area (docs/api-seo.md): the title engine, the merchant's lexicons and SEO profile, keyword search
 * and mining, benchmark accounts. Generated from the server's OpenAPI document (`make api-types` writes
 * ../schema.d.ts); the string unions are narrowings.
 */
import type { components } from '../schema';

type Schemas = components['schemas'];

/** Platforms of keyword search, mining and benchmark accounts. */
export type SeoPlatform = Schemas['SearchPlatform'];
export type TitleLang = Schemas['TitleLang'];
export type LexKind = Schemas['LexKind'];

export type Keyword = Schemas['WeightedKeyword'];

export type GenTitle = Schemas['GenTitle'];

export type AiTitle = Schemas['AiTitle'];

export type Category = Schemas['SeoCategory'];

export type KeywordRow = Schemas['SeoKeyword'];

export type Profile = Schemas['SeoProfile'];

export type ProfileReq = Omit<Profile, 'updated_at'>;

export type LexWord = Schemas['LexWord'];

/** A title pattern style: numbers, question, pain_point, offer, local, how_to, ... */
export type Style = Schemas['StyleView'];

export type GenerateReq = Schemas['AiTitleReq'];

export type GenerateResult = Schemas['Generated'];

export type AddedSkipped = Schemas['WordsAdded'];

export type SearchWord = Schemas['SearchWordView'];

export type ExcavateWord = Omit<SearchWord, 'depth'> & { depth: 1 | 2 };

export type HotWord = Schemas['HotWordView'];

/** Where SEO figures come from: `douyin_open`, `tikhub`, `sandbox` (simulated) or `none`. */
export type DataSource = Schemas['DataSource'];
export type KeywordVideo = Schemas['KeywordVideoView'];

export type Collected = Schemas['CollectedView'];

export type Benchmark = Schemas['BenchmarkView'];

export type BenchmarkDay = Schemas['DayView'];

export type Work = Schemas['BenchmarkWork'];

export type BenchmarkDetail = Schemas['BenchmarkDetail'];

/** `{id}` or `{ids}` of the delete calls. */
export type IdOrIds = number | number[];

/** The operator's title provider; `api_key` is masked. */
export type Provider = Schemas['ProviderView'];

export type ProviderReq = Schemas['ProviderReq'];

/** The provider the AI-content labels name (issue 39). */
export type AigcProvider = Schemas['AigcProvider'];
export type AigcProviderView = Schemas['AigcProviderView'];
