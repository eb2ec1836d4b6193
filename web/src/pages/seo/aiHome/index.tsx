/**
 * /ai_home — SEO home (docs/api-seo.md `seo.merchant_keywords/hot`, `list`): the hot-search list of the
 * chosen platform (a word opens the seed search; collect), the merchant's latest collected words and
 * shortcuts to the other SEO pages.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, Col, Empty, Row, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { Link } from 'react-router';
import { fetchCollected, seoUrls } from '@/api/seo';
import type { HotWord, SeoPlatform } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { renderIcon } from '@/router/icons';
import { routeByPath } from '@/router/routes';
import { useSeoT } from '../i18n';
import PlatformSwitch from '../shared/PlatformSwitch';
import SourceNote, { useSource } from '../shared/SourceTag';
import { collectColumn, useCollect } from '../shared/useWordColumns';

/** The other SEO pages, in menu order. */
export const SHORTCUTS = ['/key_search', '/key_excavate', '/keywords_num', '/keywords-new_title', '/keysword_setting', '/account_see'] as const;
const RECENT = 30;

const searchLink = (word: string, platform: SeoPlatform) => `/key_search?${new URLSearchParams({ word, platform }).toString()}`;

export default function AiHomePage() {
  const { t } = useSeoT();
  const [platform, setPlatform] = useState<SeoPlatform>('dy');
  const collector = useCollect(platform);
  const { source, onLoad } = useSource();
  const recent = useQuery({ queryKey: ['seo', 'collected', 'recent'], queryFn: () => fetchCollected(1, RECENT), retry: false });

  const columns = useMemo<DataTableColumn<HotWord>[]>(
    () => [
      { title: t('hot.rank'), dataIndex: 'rank', width: 70, render: (v: number) => <Typography.Text strong type={v <= 3 ? 'danger' : undefined}>{v}</Typography.Text> },
      {
        title: t('word.word'),
        dataIndex: 'word',
        width: 240,
        render: (v: string, row) => (
          <Space size={4}>
            <Link to={searchLink(v, platform)} data-testid={`hot-word-${row.rank}`}>
              {v}
            </Link>
            {row.label ? <Tag color="red">{row.label}</Tag> : null}
          </Space>
        ),
      },
      { title: t('word.heat'), dataIndex: 'heat', width: 120, render: (v: number) => v.toLocaleString() },
      collectColumn<HotWord>(t, 'hot', collector),
    ],
    [t, platform, collector],
  );
  const params = useMemo(() => ({ platform }), [platform]);
  const words = recent.data?.rows ?? [];

  return (
    <div data-testid="ai-home-page">
      <PageHeader title={t('common:menu.aiHome')} subTitle={t('home.subtitle')} />
      <Row gutter={[16, 16]}>
        <Col xs={24} lg={15}>
          <Card title={t('home.hot')} extra={<PlatformSwitch value={platform} onChange={setPlatform} />} size="small">
            <SourceNote source={source} need={platform === 'ks' ? 'hotKs' : 'hot'} />
            <DataTable<HotWord> id="hot" api={seoUrls.hot} method="post" params={params} columns={columns} rowKey="rank" pagination={false} onLoad={onLoad} />
          </Card>
        </Col>
        <Col xs={24} lg={9}>
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            <Card title={t('home.collected')} size="small" extra={<Link to="/keywords_num">{t('home.all')}</Link>} data-testid="home-collected">
              {words.length ? (
                <Space size={[6, 6]} wrap>
                  {words.map((w) => (
                    <Tag key={w.id} color="gold" data-testid={`home-collected-${w.id}`}>
                      <Link to={searchLink(w.word, w.platform)}>{w.word}</Link>
                    </Tag>
                  ))}
                </Space>
              ) : (
                <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('home.noCollected')} />
              )}
            </Card>
            <Card title={t('home.shortcuts')} size="small">
              <Row gutter={[8, 8]}>
                {SHORTCUTS.map((path) => {
                  const route = routeByPath.get(path);
                  return (
                    <Col span={12} key={path}>
                      <Link to={path} data-testid={`home-shortcut-${path.slice(1)}`}>
                        <Card size="small" hoverable>
                          <Space>
                            {renderIcon(route?.meta.icon)}
                            {t(`common:${route?.meta.title ?? ''}`)}
                          </Space>
                          <div>
                            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                              {t(`home.tips.${path.slice(1)}`)}
                            </Typography.Text>
                          </div>
                        </Card>
                      </Link>
                    </Col>
                  );
                })}
              </Row>
            </Card>
          </Space>
        </Col>
      </Row>
    </div>
  );
}
