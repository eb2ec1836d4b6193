/**
 * /key_excavate — keyword mining (docs/api-seo.md `seo.merchant_keywords/excavate`): the long-tail words
 * of a seed two levels deep, as a tree (each first-level word with its own expansions); collect, and
 * "make titles from these" with the chosen words.
 */
import { FontSizeOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { seoUrls } from '@/api/seo';
import DataTable from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { useSeoT } from '../i18n';
import { excavateTree, type ExcavateNode } from '../rules';
import SeedBar from '../shared/SeedBar';
import SeedEmpty from '../shared/SeedEmpty';
import SourceNote, { useSource } from '../shared/SourceTag';
import { newTitleLink } from '../shared/titlesLink';
import { useSeedQuery } from '../shared/useSeedQuery';
import { useWordColumns } from '../shared/useWordColumns';

const asTree = (rows: ExcavateNode[]) => excavateTree(rows);

export default function KeyExcavatePage() {
  const { t } = useSeoT();
  const navigate = useNavigate();
  const seed = useSeedQuery();
  const columns = useWordColumns<ExcavateNode>(seed.platform, 'excavate');
  const [picked, setPicked] = useState<string[]>([]);
  const { source, onLoad } = useSource();

  return (
    <div data-testid="key-excavate-page">
      <PageHeader
        title={t('common:menu.keyExcavate')}
        subTitle={t('excavate.subtitle')}
        extra={
          <Button type="primary" icon={<FontSizeOutlined />} disabled={!picked.length} onClick={() => navigate(newTitleLink(picked))} data-testid="excavate-make-titles">
            {t('excavate.makeTitles', { count: picked.length })}
          </Button>
        }
      />
      <SeedBar seed={seed} button={t('excavate.button')} testId="excavate-input" onSearch={() => setPicked([])} />
      {seed.params ? (
        <>
          <SourceNote source={source} need="words" />
          <DataTable<ExcavateNode>
            id="excavate"
            api={seoUrls.excavate}
            method="post"
            params={seed.params}
            columns={columns}
            rowKey="key"
            transform={asTree}
            expandAll
            pagination={false}
            selectable
            onSelectionChange={(_, rows) => setPicked([...new Set(rows.map((r) => r.word))])}
            scrollX={860}
            onLoad={onLoad}
          />
        </>
      ) : (
        <SeedEmpty text={t('excavate.empty')} />
      )}
    </div>
  );
}
