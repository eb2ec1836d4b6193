/**
 * SEO (docs/api-seo.md): the title engine and the merchant's saved titles, categories and their
 * keywords, the SEO profile and lexicons, keyword search and mining, benchmark accounts. Lists are read
 * by DataTable through `seoUrls`; the calls whose 422 is shown at a form field are silent.
 */
import { api, type Body, narrowed } from '../client';
import type { ListResult } from '../types';
import type {
  AddedSkipped,
  AiTitle,
  Benchmark,
  BenchmarkDetail,
  Category,
  Collected,
  DataSource,
  ExcavateWord,
  GenerateReq,
  GenerateResult,
  HotWord,
  IdOrIds,
  KeywordRow,
  LexKind,
  Profile,
  AigcProvider,
  AigcProviderView,
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
  lexiconExport: `${LX}/export`,
  /** Words from a sheet into a lexicon (`kind`), and its template. */
  lexiconImport: `${LX}/import`,
  lexiconImportTemplate: `${LX}/import_template`,
  search: `${KW}/search`,
  excavate: `${KW}/excavate`,
  hot: `${KW}/hot`,
  videos: `${KW}/videos`,
  collected: `${KW}/list`,
  benchmarks: `${BM}/index`,
} as const;

/**
 * The area's query keys: a write marks the area stale (`useWrite`), so the tables and reads on screen
 * (categories and their counts, the title library, the lexicon) read again.
 */
export const seoKeys = {
  all: ['seo'] as const,
  categories: ['seo', 'categories'] as const,
  provider: ['seo', 'provider'] as const,
  aigcProvider: ['seo', 'aigc-provider'] as const,
  profile: ['seo', 'profile'] as const,
};

type Empty = Record<string, never>;
const idBody = (id: IdOrIds) => (Array.isArray(id) ? { ids: id } : { id });

// ---- title engine and saved titles

/** Silent: a 422 (`keywords`, `count`, …) is shown at its field. */
export const generateTitles = (req: GenerateReq): Promise<GenerateResult> => narrowed(api.post(`${SL}/ai_title`, req, { silent: true }));
export const fetchStyles = (lang: TitleLang): Promise<{ rows: Style[] }> => api.get(`${SL}/styles`, { lang });
/** Duplicates of saved titles are skipped. */
export const saveTitles = (titles: string[], categoryId?: number): Promise<AddedSkipped> =>
  api.post(`${SL}/ai_add`, categoryId ? { titles, category_id: categoryId } : { titles });
/** Silent: 422 at the field. */
export const editSavedTitle = (id: number, title: string, categoryId?: number): Promise<AiTitle> =>
  api.post(`${SL}/ai_edit`, categoryId ? { id, title, category_id: categoryId } : { id, title }, { silent: true });
export const deleteSavedTitles = (id: IdOrIds): Promise<Empty> => api.post(`${SL}/ai_delete`, idBody(id));

// ---- categories and their keywords

/** Built-in and own categories, all of them. */
export const fetchCategories = (): Promise<ListResult<Category>> => api.post(seoUrls.categories, {});
/** Add (no id) or rename. Silent: 422 at the field. */
export const saveCategory = (name: string, id?: number): Promise<Category> => api.post(`${SL}/ai_category`, id ? { id, name } : { name }, { silent: true });
/** Silent: 422 at the field. */
export const addKeywords = (categoryId: number, words: string[]): Promise<AddedSkipped> => api.post(`${SL}/keywords_add`, { category_id: categoryId, words }, { silent: true });
/** Silent: 422 at the field. */
export const editKeyword = (id: number, word: string): Promise<KeywordRow> => api.post(`${SL}/keywords_edit`, { id, word }, { silent: true });
export const deleteKeywords = (id: IdOrIds): Promise<Empty> => api.post(`${SL}/keywords_delete`, idBody(id));

// ---- SEO profile and lexicons

export const fetchProfile = (): Promise<Profile> => api.get(`${LX}/profile`);
/** Silent: 422 at the field. */
export const saveProfile = (req: ProfileReq): Promise<Profile> => api.post(`${SL}/edit`, req, { silent: true });
/** Silent: 422 at the field. */
export const addLexWords = (kind: LexKind, words: string[]): Promise<AddedSkipped> => api.post(`${LX}/add`, { kind, words }, { silent: true });
export const deleteLexWords = (id: IdOrIds): Promise<Empty> => api.post(`${LX}/delete`, idBody(id));

// ---- keyword search and mining

export const searchWords = (platform: SeoPlatform, word: string): Promise<{ rows: SearchWord[]; source: DataSource }> => api.post(seoUrls.search, { platform, word });
export const excavateWords = (platform: SeoPlatform, word: string): Promise<{ rows: ExcavateWord[]; source: DataSource }> => narrowed(api.post(seoUrls.excavate, { platform, word }));
export const fetchHot = (platform: SeoPlatform): Promise<{ rows: HotWord[]; source: DataSource }> => api.post(seoUrls.hot, { platform });
/** Collecting twice keeps one. */
export const collectWord = (word: string, platform: SeoPlatform, heat?: number): Promise<Collected> =>
  narrowed(api.post(`${KW}/collect`, heat === undefined ? { word, platform } : { word, platform, heat }));
export const fetchCollected = (page = 1, limit = 20): Promise<ListResult<Collected>> => narrowed(api.post(seoUrls.collected, { page, limit }));
export const deleteCollected = (id: IdOrIds): Promise<Empty> => api.post(`${KW}/delete`, idBody(id));

// ---- benchmark accounts

/** A share link or an account id; the first sync is done before the answer. Silent: 422 at the field. */
export const addBenchmark = (platform: Body<'/seo.benchmark/add'>['platform'], link: string): Promise<Benchmark> => narrowed(api.post(`${BM}/add`, { platform, link }, { silent: true }));
export const fetchBenchmark = (id: number): Promise<BenchmarkDetail> => narrowed(api.post(`${BM}/info`, { id }));
export const syncBenchmark = (id: number): Promise<Benchmark> => narrowed(api.post(`${BM}/sync`, { id }));
export const deleteBenchmark = (id: number): Promise<Empty> => api.post(`${BM}/delete`, { id });

// ---- the operator's title provider (/system/ai_provider)

export const fetchProvider = (): Promise<Provider> => api.get('/system/ai_provider/index');
/** A blank key keeps the saved one. Silent: 422 at the field. */
export const saveProvider = (req: ProviderReq): Promise<Provider> => api.post('/system/ai_provider/save', req, { silent: true });
export const clearProvider = (): Promise<Empty> => api.post('/system/ai_provider/clear', {});
/** The provider the AI-content labels name (GB 45438-2025's `ContentProducer`), set once by the operator. */
export const fetchAigcProvider = (): Promise<AigcProviderView> => api.get('/system/ai_provider/aigc');
export const saveAigcProvider = (req: AigcProvider): Promise<AigcProviderView> => api.post('/system/ai_provider/aigc_save', req, { silent: true });
