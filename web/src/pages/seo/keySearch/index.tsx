/**
 * /key_search — seed word search (docs/api-seo.md `seo.merchant_keywords/search`): the words related to a
 * seed on Douyin or Kuaishou with their heat, 7-day trend, change, whether they are collected and how
 * many of the merchant's titles cover them; collect. On Douyin, the last day's videos for the word
 * (Douyin's keyword video search). The figures' source shows above them (a
 * "Simulated" badge in the sandbox, a notice naming the missing source instead of numbers).
 */
import { seoUrls } from '@/api/seo';
import type { SearchWord } from '@/api/seo/types';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { useSeoT } from '../i18n';
import SeedBar from '../shared/SeedBar';
import SeedEmpty from '../shared/SeedEmpty';
import SourceNote, { useSource } from '../shared/SourceTag';
import { useSeedQuery } from '../shared/useSeedQuery';
import { useWordColumns } from '../shared/useWordColumns';
import KeywordVideos from './KeywordVideos';

export default function KeySearchPage() {
  const { t } = useSeoT();
  const seed = useSeedQuery();
  const columns = useWordColumns<SearchWord>(seed.platform, 'search');
  const { source, onLoad } = useSource();

  return (
    <div data-testid="key-search-page">
      <PageHeader title={t('common:menu.keySearch')} subTitle={t('search.subtitle')} />
      <SeedBar seed={seed} button={t('search.button')} testId="search-input" />
      {seed.params ? (
        <>
          <SourceNote source={source} need="words" />
          <DataTable<SearchWord> id="search" api={seoUrls.search} method="post" params={seed.params} columns={columns} rowKey="word" pagination={false} scrollX={800} onLoad={onLoad} />
          {seed.platform === 'dy' ? <KeywordVideos word={seed.word} /> : null}
        </>
      ) : (
        <SeedEmpty text={t('search.empty')} />
      )}
    </div>
  );
}
