/**
 * /new_ai_title — Administrator only (docs/api-seo.md `getAllAiCategory`, `ai_category`, `keywords*`):
 * the title categories (add, rename) and each category's built-in keywords (bulk add, edit, delete).
 */
import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useWrite } from '@/api/mutations';
import { addKeywords, deleteKeywords, editKeyword, saveCategory, seoKeys, seoUrls } from '@/api/seo';
import type { Category, KeywordRow } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { wordFilterFields } from '../filters';
import { useSeoT } from '../i18n';
import { CATEGORY_NAME_MAX, WORD_MAX } from '../rules';
import BulkWordsDialog from '../shared/BulkWordsDialog';
import { useDeleteRows } from '../shared/useDeleteRows';
import WordForm from '../shared/WordForm';

export default function BuiltinKeywordsPage() {
  const { t } = useSeoT();
  const [current, setCurrent] = useState<Category | null>(null);
  /** undefined: closed; null: a new category. */
  const [naming, setNaming] = useState<Category | null | undefined>(undefined);
  const [editing, setEditing] = useState<KeywordRow | null>(null);
  const [adding, setAdding] = useState(false);
  const del = useDeleteRows<KeywordRow>(deleteKeywords, 'kw');
  const nameCategory = useWrite(({ name, id }: { name: string; id?: number }) => saveCategory(name, id), seoKeys.all);
  const editWord = useWrite(({ id, word }: { id: number; word: string }) => editKeyword(id, word), seoKeys.all);

  const categoryColumns = useMemo<DataTableColumn<Category>[]>(
    () => [
      {
        title: t('cat.name'),
        dataIndex: 'name',
        render: (v: string, row) => (
          <Space size={4}>
            <Typography.Link strong={current?.id === row.id} onClick={() => setCurrent(row)} data-testid={`cat-pick-${row.id}`}>
              {v}
            </Typography.Link>
            {row.builtin ? <Tag color="blue">{t('cat.builtin')}</Tag> : null}
          </Space>
        ),
      },
      { title: t('cat.keywords'), dataIndex: 'keywords', width: 90 },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 90,
        render: (_, row) => (
          <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setNaming(row)} data-testid={`cat-rename-${row.id}`}>
            {t('cat.rename')}
          </Button>
        ),
      },
    ],
    [t, current],
  );

  const keywordColumns = useMemo<DataTableColumn<KeywordRow>[]>(
    () => [
      { title: t('word.word'), dataIndex: 'word', width: 220, render: (v: string, row) => <span data-testid={`kw-word-${row.id}`}>{v}</span> },
      { title: t('cat.source'), dataIndex: 'builtin', width: 100, render: (v: boolean) => (v ? <Tag color="blue">{t('cat.builtin')}</Tag> : <Tag>{t('cat.own')}</Tag>) },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, render: formatTime },
      del.actionsColumn((row) => row.word, setEditing),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => wordFilterFields(t), [t]);
  const keywordParams = useMemo(() => (current ? { filterObj: { category_id: `${current.id}|=` } } : undefined), [current]);

  return (
    <div data-testid="builtin-keywords-page">
      <PageHeader title={t('common:menu.newAiTitle')} subTitle={t('cat.subtitle')} />
      <Row gutter={16}>
        <Col xs={24} lg={9}>
          <Card
            size="small"
            title={t('cat.title')}
            extra={
              <Button size="small" type="primary" icon={<PlusOutlined />} onClick={() => setNaming(null)} data-testid="cat-add">
                {t('cat.add')}
              </Button>
            }
          >
            <DataTable<Category> id="seo-categories" queryKey={seoKeys.all} api={seoUrls.categories} method="post" columns={categoryColumns} pagination={false} />
          </Card>
        </Col>
        <Col xs={24} lg={15}>
          <Card size="small" title={current ? t('cat.keywordsOf', { name: current.name }) : t('cat.keywordsTitle')}>
            {current ? (
              <DataTable<KeywordRow>
                id="seo-keywords"
                queryKey={seoKeys.all}
                api={seoUrls.keywords}
                method="post"
                params={keywordParams}
                columns={keywordColumns}
                filterFields={filterFields}
                selectable
                onSelectionChange={del.onSelect}
                toolbar={
                  <Space>
                    <Button type="primary" icon={<PlusOutlined />} onClick={() => setAdding(true)} data-testid="kw-add">
                      {t('cat.addKeywords')}
                    </Button>
                    {del.many()}
                  </Space>
                }
              />
            ) : (
              <Empty description={<span data-testid="kw-pick-category">{t('cat.pick')}</span>} />
            )}
          </Card>
        </Col>
      </Row>
      <WordForm
        open={naming !== undefined}
        title={naming ? t('cat.renameTitle', { name: naming.name }) : t('cat.addTitle')}
        label={t('cat.name')}
        field="name"
        value={naming?.name}
        max={CATEGORY_NAME_MAX}
        testId="cat-form"
        onClose={() => setNaming(undefined)}
        onSubmit={async (name) => {
          const saved = await nameCategory.mutateAsync({ name, id: naming?.id });
          feedback.success(t('common:savedSuccessfully'));
          setNaming(undefined);
          if (current?.id === saved.id) setCurrent(saved);
        }}
      />
      <WordForm
        open={editing !== null}
        title={t('cat.editKeyword')}
        label={t('word.word')}
        field="word"
        value={editing?.word}
        max={WORD_MAX}
        testId="kw-form"
        onClose={() => setEditing(null)}
        onSubmit={async (word) => {
          await editWord.mutateAsync({ id: editing!.id, word });
          feedback.success(t('common:savedSuccessfully'));
          setEditing(null);
        }}
      />
      {current ? (
        <BulkWordsDialog
          open={adding}
          title={t('cat.addKeywordsTitle', { name: current.name })}
          onClose={() => setAdding(false)}
          onSubmit={(words) => addKeywords(current.id, words)}
          onAdded={() => setAdding(false)}
          testId="kw-words"
        />
      ) : null}
    </div>
  );
}
