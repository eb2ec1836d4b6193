/**
 * The titles the engine just made (an answer, not a server list: shown with antd's Table like the plan
 * previews of the release and mixing forms): title with its length, score, the keywords it uses and its
 * style; rows can be picked.
 */
import { Progress, Space, Table, Tag, Typography } from 'antd';
import type { GenTitle } from '@/api/seo/types';
import { useSeoT } from '../i18n';
import { charCount, scorePercent } from '../rules';

export interface GeneratedTableProps {
  rows: readonly GenTitle[];
  maxChars: number;
  selected: string[];
  onSelect: (titles: string[]) => void;
  loading?: boolean;
  testId?: string;
}

export default function GeneratedTable({ rows, maxChars, selected, onSelect, loading, testId = 'generated' }: GeneratedTableProps) {
  const { t } = useSeoT();
  return (
    <Table<GenTitle>
      size="small"
      rowKey="title"
      loading={loading}
      dataSource={rows as GenTitle[]}
      pagination={rows.length > 20 ? { pageSize: 20, showSizeChanger: false } : false}
      scroll={{ x: 760 }}
      rowSelection={{ type: 'checkbox', selectedRowKeys: selected, onChange: (keys) => onSelect(keys.map(String)) }}
      onRow={(row) => ({ 'data-testid': `${testId}-row-${row.title}` }) as React.HTMLAttributes<HTMLElement>}
      locale={{ emptyText: <span data-testid={`${testId}-empty`}>{t('gen.none')}</span> }}
      columns={[
        {
          title: t('title.title'),
          dataIndex: 'title',
          render: (v: string) => (
            <Space size={6}>
              <Typography.Text>{v}</Typography.Text>
              <Typography.Text type={charCount(v) > maxChars ? 'danger' : 'secondary'} style={{ fontSize: 12 }}>
                {charCount(v)}/{maxChars}
              </Typography.Text>
            </Space>
          ),
        },
        {
          title: t('gen.score'),
          dataIndex: 'score',
          width: 120,
          render: (v: number, row) => <Progress percent={scorePercent(v)} size="small" steps={5} data-testid={`${testId}-score-${row.title}`} />,
        },
        {
          title: t('gen.keywords'),
          dataIndex: 'keywords',
          width: 220,
          render: (v: string[]) => (
            <Space size={[2, 2]} wrap>
              {(v ?? []).map((k) => (
                <Tag key={k} color="blue">
                  {k}
                </Tag>
              ))}
            </Space>
          ),
        },
        { title: t('gen.style'), dataIndex: 'style_name', width: 100 },
      ]}
    />
  );
}
