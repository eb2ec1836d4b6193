/**
 * /keysword_setting — lexicon settings (docs/api-seo.md `seo.merchant_seo_lexicon/*`): the SEO profile
 * and one tab per lexicon (brand, product, region, long-tail, banned, stop words) with its words, bulk
 * add (one a line) and delete.
 */
import { PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Tabs } from 'antd';
import { useMemo, useState } from 'react';
import { useMarkStale } from '@/api/mutations';
import { addLexWords, deleteLexWords, seoKeys, seoUrls } from '@/api/seo';
import type { LexKind, LexWord } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { wordFilterFields } from '../filters';
import { useSeoT } from '../i18n';
import { LEX_KINDS } from '../rules';
import BulkWordsDialog from '../shared/BulkWordsDialog';
import { useDeleteRows } from '../shared/useDeleteRows';
import ProfileForm from './ProfileForm';

function LexiconTab({ kind }: { kind: LexKind }) {
  const { t } = useSeoT();
  const [adding, setAdding] = useState(false);
  const del = useDeleteRows<LexWord>(deleteLexWords, 'lex');
  const columns = useMemo<DataTableColumn<LexWord>[]>(
    () => [
      { title: t('word.word'), dataIndex: 'word', width: 260, render: (v: string, row) => <span data-testid={`lex-word-${row.id}`}>{v}</span> },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      del.actionsColumn((row) => row.word),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => wordFilterFields(t), [t]);
  const params = useMemo(() => ({ kind }), [kind]);
  const markStale = useMarkStale(seoKeys.all);
  return (
    <>
      <Alert type="info" showIcon title={t(`lex.help.${kind}`)} style={{ marginBottom: 12 }} />
      <DataTable<LexWord>
        id={`lex-${kind}`}
        queryKey={seoKeys.all}
        api={seoUrls.lexicon}
        exportApi={seoUrls.lexiconExport}
        importer={{
          api: seoUrls.lexiconImport,
          templateApi: seoUrls.lexiconImportTemplate,
          fields: { kind },
          name: 'lexicon-import',
          hint: t('lex.importHint', { kind: t(`lex.kinds.${kind}`) }),
          onDone: (r: { added: number; skipped: number }) => {
            feedback.success(t('lex.imported', { added: r.added, skipped: r.skipped }));
            markStale();
          },
        }}
        method="post"
        params={params}
        columns={columns}
        filterFields={filterFields}
        selectable
        onSelectionChange={del.onSelect}
        toolbar={
          <Space>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid={`lex-add-${kind}`}>
              {t('lex.add')}
            </Button>
            {del.many()}
          </Space>
        }
      />
      <BulkWordsDialog
        open={adding}
        title={t('lex.addTitle', { kind: t(`lex.kinds.${kind}`) })}
        onClose={() => setAdding(false)}
        onSubmit={(words) => addLexWords(kind, words)}
        onAdded={() => setAdding(false)}
        testId={`lex-words-${kind}`}
      />
    </>
  );
}

export default function LexiconPage() {
  const { t } = useSeoT();
  return (
    <div data-testid="lexicon-page">
      <PageHeader title={t('common:menu.keyswordSetting')} subTitle={t('lex.subtitle')} />
      <ProfileForm />
      <Tabs items={LEX_KINDS.map((k) => ({ key: k, label: <span data-testid={`lex-tab-${k}`}>{t(`lex.kinds.${k}`)}</span>, children: <LexiconTab kind={k} /> }))} />
    </div>
  );
}
