/**
 * /keywords-new_title — titles from keywords in bulk (docs/api-seo.md "Title engine"): the generate tab
 * (keywords handed over by the search pages as `?kw=`) and the saved title library.
 */
import { Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import PageHeader from '@/components/PageHeader';
import { useSeoT } from '../i18n';
import { handedKeywords } from '../shared/titlesLink';
import GeneratePanel from './GeneratePanel';
import TitleLibrary from './TitleLibrary';

export default function NewTitlePage() {
  const { t } = useSeoT();
  const [search] = useSearchParams();
  const keywords = useMemo(() => handedKeywords(search), [search]);
  const [tab, setTab] = useState('generate');

  return (
    <div data-testid="new-title-page">
      <PageHeader title={t('common:menu.keywordsNewTitle')} subTitle={t('gen.subtitle')} />
      <Tabs
        activeKey={tab}
        onChange={setTab}
        items={[
          { key: 'generate', label: <span data-testid="tab-generate">{t('gen.tab')}</span>, children: <GeneratePanel key={keywords.join('\n')} keywords={keywords} /> },
          { key: 'library', label: <span data-testid="tab-library">{t('title.tab')}</span>, children: <TitleLibrary /> },
        ]}
      />
    </div>
  );
}
