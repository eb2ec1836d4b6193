/**
 * /keywords_num — the collected keywords (docs/api-seo.md `seo.merchant_keywords/list`): word, platform,
 * heat when collected, how many of the merchant's titles cover it; filters, delete (one or the chosen
 * ones) and "make titles from these".
 */
import { FontSizeOutlined } from '@ant-design/icons';
import { Button, Space, Tag } from 'antd';
import { useMemo } from 'react';
import { useNavigate } from 'react-router';
import { deleteCollected, seoKeys, seoUrls } from '@/api/seo';
import type { Collected } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { formatTime } from '@/utils/format';
import { collectedFilterFields } from '../filters';
import { useSeoT } from '../i18n';
import CoveredTag from '../shared/CoveredTag';
import { newTitleLink } from '../shared/titlesLink';
import { useDeleteRows } from '../shared/useDeleteRows';

export default function KeywordsNumPage() {
  const { t } = useSeoT();
  const navigate = useNavigate();
  const del = useDeleteRows<Collected>(deleteCollected, 'collected');
  const picked = del.picked;

  const columns = useMemo<DataTableColumn<Collected>[]>(
    () => [
      { title: t('word.word'), dataIndex: 'word', width: 200, render: (v: string, row) => <span data-testid={`collected-word-${row.id}`}>{v}</span> },
      { title: t('word.platform'), dataIndex: 'platform', width: 100, render: (v: string) => <Tag>{t(`platform.${v}`)}</Tag> },
      { title: t('word.heat'), dataIndex: 'heat', width: 120, sorter: true, render: (v: number) => v.toLocaleString() },
      {
        title: t('word.covered'),
        dataIndex: 'covered',
        width: 150,
        sorter: true,
        render: (v: number, row) => <CoveredTag count={v} testId={`collected-covered-${row.id}`} />,
      },
      { title: t('word.collectedAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      del.actionsColumn((row) => row.word),
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => collectedFilterFields(t), [t]);

  return (
    <div data-testid="keywords-num-page">
      <PageHeader title={t('common:menu.keywordsNum')} subTitle={t('collected.subtitle')} />
      <DataTable<Collected>
        id="collected"
        queryKey={seoKeys.all}
        api={seoUrls.collected}
        method="post"
        columns={columns}
        filterFields={filterFields}
        selectable
        onSelectionChange={del.onSelect}
        scrollX={860}
        toolbar={
          <Space>
            <Button icon={<FontSizeOutlined />} disabled={!picked.length} onClick={() => navigate(newTitleLink(picked.map((r) => r.word)))} data-testid="collected-make-titles">
              {t('excavate.makeTitles', { count: picked.length })}
            </Button>
            {del.many()}
          </Space>
        }
      />
    </div>
  );
}
