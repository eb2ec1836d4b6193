/**
 * SEO area (docs/api-seo.md): the title engine, the merchant's lexicons and SEO profile, keyword search
 * and mining, benchmark accounts.
 *
 * Written by hand from the contract while the server is being built. Once it lands, switch these to the
 * generated schema (`import type { components } from '../schema'`, `make api-types`) like api/nfc/types.ts,
 * keeping the string unions below as narrowings.
 */
import type { Millis } from '../types';

/** Platforms of keyword search, mining and benchmark accounts. */
export type SeoPlatform = 'dy' | 'ks';
export type TitleLang = 'zh' | 'en';
export type LexKind = 'brand' | 'product' | 'region' | 'longtail' | 'banned' | 'stop';

export interface Keyword {
  word: string;
  weight: number;
}

export interface GenTitle {
  title: string;
  style: string;
  style_name: string;
  score: number;
  keywords: string[];
}

export interface AiTitle {
  id: number;
  title: string;
  category_id: number;
  category_name: string;
  created_at: Millis;
}

export interface Category {
  id: number;
  name: string;
  builtin: boolean;
  /** How many keywords it holds. */
  keywords: number;
  created_at: Millis;
}

export interface KeywordRow {
  id: number;
  category_id: number;
  category_name: string;
  word: string;
  builtin: boolean;
  created_at: Millis;
}

export interface Profile {
  brand: string;
  product: string;
  region: string;
  description: string;
  category_id: number;
  updated_at: Millis;
}

export type ProfileReq = Omit<Profile, 'updated_at'>;

export interface LexWord {
  id: number;
  kind: LexKind;
  word: string;
  created_at: Millis;
}

/** A title pattern style: numbers, question, pain, offer, local, howto, ... */
export interface Style {
  code: string;
  name: string;
}

export interface GenerateReq {
  text?: string;
  keywords?: string[];
  category_id?: number;
  styles?: string[];
  /** 1..200, default 20. */
  count: number;
  /** 20..50, default 50. */
  max_chars: number;
  lang: TitleLang;
  topics?: boolean;
}

export interface GenerateResult {
  rows: GenTitle[];
  keywords: Keyword[];
  topics: string[];
  provider: 'builtin' | 'openai';
}

export interface AddedSkipped {
  added: number;
  skipped: number;
}

export interface SearchWord {
  word: string;
  heat: number;
  /** 7 days, oldest first. */
  trend: number[];
  /** Ratio against 7 days ago (0.12 = +12 %). */
  change: number;
  collected: boolean;
  /** The merchant's own published titles containing it. */
  covered: number;
}

export type ExcavateWord = SearchWord & { depth: 1 | 2; parent: string };

export interface HotWord {
  rank: number;
  word: string;
  heat: number;
  label: string;
  collected: boolean;
}

export interface Collected {
  id: number;
  word: string;
  platform: SeoPlatform;
  heat: number;
  covered: number;
  created_at: Millis;
}

export interface Benchmark {
  id: number;
  platform: SeoPlatform;
  account_id: string;
  nickname: string;
  avatar: string;
  share_url: string;
  followers: number;
  likes: number;
  works: number;
  posts_7d: number;
  plays_7d: number;
  last_sync_at: Millis | null;
  last_error: string;
  created_at: Millis;
}

export interface BenchmarkDay {
  day: string;
  followers: number;
  works: number;
  plays: number;
  likes: number;
}

export interface Work {
  work_id: string;
  title: string;
  create_time: Millis;
  plays: number;
  likes: number;
  comments: number;
  shares: number;
}

export type BenchmarkDetail = Benchmark & {
  series: BenchmarkDay[];
  top: Work[];
  words: Keyword[];
  /** Posts a day over the last 30 days. */
  per_day: number;
};

/** `{id}` or `{ids}` of the delete calls. */
export type IdOrIds = number | number[];
