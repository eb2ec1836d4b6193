/**
 * The last day's Douyin videos for the seed word (Douyin's keyword video search,
 * `seo.merchant_keywords/videos`), read with one of the merchant's Douyin accounts that granted
 * `video.search`: what competitors post for the word right now. Without such an account the page
 * says what would provide them instead of showing anything.
 */
import { Card, Typography } from 'antd';
import { useMemo } from 'react';
import { seoUrls } from '@/api/seo';
import type { KeywordVideo } from '@/api/seo/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import { formatTime } from '@/utils/format';
import { useSeoT } from '../i18n';
import SourceNote, { useSource } from '../shared/SourceTag';

export default function KeywordVideos({ word }: { word: string }) {
  const { t } = useSeoT();
  const { source, onLoad } = useSource();
  const params = useMemo(() => ({ word }), [word]);
  const columns: DataTableColumn<KeywordVideo>[] = [
    { title: t('videos.cover'), dataIndex: 'cover', width: 72, render: (v: string) => (v ? <img src={v} alt="" width={48} height={64} style={{ objectFit: 'cover' }} /> : null) },
    {
      title: t('videos.video'),
      dataIndex: 'title',
      render: (v: string, r) => (
        <Typography.Link href={r.share_url} target="_blank" rel="noopener noreferrer">
          {v}
        </Typography.Link>
      ),
    },
    { title: t('videos.time'), dataIndex: 'created_at', width: 170, render: (v: number) => formatTime(v) },
    { title: t('videos.plays'), dataIndex: 'plays', width: 90, align: 'right' },
    { title: t('videos.likes'), dataIndex: 'likes', width: 90, align: 'right' },
    { title: t('videos.comments'), dataIndex: 'comments', width: 90, align: 'right' },
    { title: t('videos.shares'), dataIndex: 'shares', width: 90, align: 'right' },
  ];
  return (
    <Card size="small" title={t('videos.title', { word })} style={{ marginTop: 16 }} data-testid="keyword-videos">
      <SourceNote source={source} need="videos" testId="keyword-videos-source" />
      {/* Without a source the notice says what would provide the videos; no empty table. */}
      <div style={source === 'none' ? { display: 'none' } : undefined}>
        <DataTable<KeywordVideo> id="keyword-videos" api={seoUrls.videos} method="post" params={params} columns={columns} rowKey="sec_item_id" pagination={false} scrollX={800} onLoad={onLoad} />
      </div>
    </Card>
  );
}
