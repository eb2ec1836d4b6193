/**
 * SEO (docs/api-seo.md): the title engine and the merchant's saved titles, categories and their
 * keywords, the SEO profile and lexicons, keyword search and mining, benchmark accounts. Lists are read
 * by DataTable through `seoUrls`; the calls whose 422 is shown at a form field are silent.
 */
import { http } from '../request';
import type { ListResult } from '../types';
import type {
  AddedSkipped,
  AiTitle,
  Benchmark,
  BenchmarkDetail,
  Category,
  Collected,
  ExcavateWord,
  GenerateReq,
  GenerateResult,
  HotWord,
  IdOrIds,
  KeywordRow,
  LexKind,
  Profile,
  Provider,
  ProviderReq,
  ProfileReq,
  SearchWord,
  SeoPlatform,
  Style,
  TitleLang,
} from './types';

/** Titles, categories, built-in keywords and the profile. */
const SL = '/screen.merchant_seo_lexicon';
/** The merchant's lexicons. */
const LX = '/seo.merchant_seo_lexicon';
const KW = '/seo.merchant_keywords';
const BM = '/seo.benchmark';

export const seoUrls = {
  titles: `${SL}/index`,
  categories: `${SL}/getAllAiCategory`,
  keywords: `${SL}/keywords`,
  lexicon: `${LX}/index`,
  search: `${KW}/search`,
  excavate: `${KW}/excavate`,
  hot: `${KW}/hot`,
  collected: `${KW}/list`,
  benchmarks: `${BM}/index`,
} as const;

type Empty = Record<string, never>;
const idBody = (id: IdOrIds) => (Array.isArray(id) ? { ids: id } : { id });

// ---- title engine and saved titles

/** Silent: a 422 (`keywords`, `count`, …) is shown at its field. */
export const generateTitles = (req: GenerateReq) => http.post<GenerateResult>(`${SL}/ai_title`, req, { silent: true });
export const fetchStyles = (lang: TitleLang) => http.get<{ rows: Style[] }>(`${SL}/styles`, { lang });
/** Duplicates of saved titles are skipped. */
export const saveTitles = (titles: string[], categoryId?: number) =>
  http.post<AddedSkipped>(`${SL}/ai_add`, categoryId ? { titles, category_id: categoryId } : { titles });
/** Silent: 422 at the field. */
export const editSavedTitle = (id: number, title: string, categoryId?: number) =>
  http.post<AiTitle>(`${SL}/ai_edit`, categoryId ? { id, title, category_id: categoryId } : { id, title }, { silent: true });
export const deleteSavedTitles = (id: IdOrIds) => http.post<Empty>(`${SL}/ai_delete`, idBody(id));

// ---- categories and their keywords

/** Built-in and own categories, all of them. */
export const fetchCategories = () => http.post<ListResult<Category>>(seoUrls.categories, {});
/** Add (no id) or rename. Silent: 422 at the field. */
export const saveCategory = (name: string, id?: number) => http.post<Category>(`${SL}/ai_category`, id ? { id, name } : { name }, { silent: true });
/** Silent: 422 at the field. */
export const addKeywords = (categoryId: number, words: string[]) => http.post<AddedSkipped>(`${SL}/keywords_add`, { category_id: categoryId, words }, { silent: true });
/** Silent: 422 at the field. */
export const editKeyword = (id: number, word: string) => http.post<KeywordRow>(`${SL}/keywords_edit`, { id, word }, { silent: true });
export const deleteKeywords = (id: IdOrIds) => http.post<Empty>(`${SL}/keywords_delete`, idBody(id));

// ---- SEO profile and lexicons

export const fetchProfile = () => http.get<Profile>(`${LX}/profile`);
/** Silent: 422 at the field. */
export const saveProfile = (req: ProfileReq) => http.post<Profile>(`${SL}/edit`, req, { silent: true });
/** Silent: 422 at the field. */
export const addLexWords = (kind: LexKind, words: string[]) => http.post<AddedSkipped>(`${LX}/add`, { kind, words }, { silent: true });
export const deleteLexWords = (id: IdOrIds) => http.post<Empty>(`${LX}/delete`, idBody(id));

// ---- keyword search and mining

export const searchWords = (platform: SeoPlatform, word: string) => http.post<{ rows: SearchWord[] }>(seoUrls.search, { platform, word });
export const excavateWords = (platform: SeoPlatform, word: string) => http.post<{ rows: ExcavateWord[] }>(seoUrls.excavate, { platform, word });
export const fetchHot = (platform: SeoPlatform) => http.post<{ rows: HotWord[] }>(seoUrls.hot, { platform });
/** Collecting twice keeps one. */
export const collectWord = (word: string, platform: SeoPlatform, heat?: number) =>
  http.post<Collected>(`${KW}/collect`, heat === undefined ? { word, platform } : { word, platform, heat });
export const fetchCollected = (page = 1, limit = 20) => http.post<ListResult<Collected>>(seoUrls.collected, { page, limit });
export const deleteCollected = (id: IdOrIds) => http.post<Empty>(`${KW}/delete`, idBody(id));

// ---- benchmark accounts

/** A share link or an account id; the first sync is done before the answer. Silent: 422 at the field. */
export const addBenchmark = (platform: SeoPlatform, link: string) => http.post<Benchmark>(`${BM}/add`, { platform, link }, { silent: true });
export const fetchBenchmark = (id: number) => http.post<BenchmarkDetail>(`${BM}/info`, { id });
export const syncBenchmark = (id: number) => http.post<Benchmark>(`${BM}/sync`, { id });
export const deleteBenchmark = (id: number) => http.post<Empty>(`${BM}/delete`, { id });

// ---- the operator's title provider (/system/ai_provider)

export const fetchProvider = () => http.get<Provider>('/system/ai_provider/index');
/** A blank key keeps the saved one. Silent: 422 at the field. */
export const saveProvider = (req: ProviderReq) => http.post<Provider>('/system/ai_provider/save', req, { silent: true });
export const clearProvider = () => http.post<Empty>('/system/ai_provider/clear', {});
