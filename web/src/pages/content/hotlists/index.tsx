/**
 * /hotmusic, /keywords, /hotvideo, /hottopic, /life, /doyen — the platforms' boards as the server last
 * read them (job content.hotlist_sync; docs/content-platforms.md), one page component, the page from
 * the path. "Use as topic" hands topics to a new release task (matrix handoff), "use in a mix" hands a
 * song to a new quick-mix project (clip handoff).
 */
import { ArrowDownOutlined, ArrowUpOutlined } from '@ant-design/icons';
import { Alert, Avatar, Button, Segmented, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { hotListUrl, type HotPage } from '@/api/content';
import type { HotBoard, HotRow } from '@/api/content/types';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import SimulatedTag from '@/components/SimulatedTag';
import { MIX_FORM_PATH, stashMixMusic } from '@/pages/clip/normalMode/handoff';
import { RELEASE_FORM_PATH, stashReleaseTopics } from '@/pages/matrix/sendManagement/handoff';
import { formatTime } from '@/utils/format';
import { useContentT } from '../i18n';
import { changeKind, PAGE_BOARDS, PAGE_OF_PATH, songLength } from './boards';

const TITLES: Record<HotPage, string> = {
  music: 'common:menu.hotMusic',
  keywords: 'common:menu.hotKeywords',
  video: 'common:menu.hotVideo',
  topic: 'common:menu.hotTopic',
  life: 'common:menu.hotLife',
  doyen: 'common:menu.hotDoyen',
};

/** While a board has not been read yet, look again this often. */
const PENDING_RETRY_MS = 3000;

const num = (n: number) => n.toLocaleString();

function Change({ value }: { value: string }) {
  const { t } = useContentT();
  const kind = changeKind(value);
  if (kind === 'new') return <Tag color="magenta">{t('hot.change.new')}</Tag>;
  if (kind === 'up') return <Typography.Text type="danger"><ArrowUpOutlined /> {value.replace('+', '')}</Typography.Text>;
  if (kind === 'down') return <Typography.Text type="success"><ArrowDownOutlined /> {value.replace('-', '')}</Typography.Text>;
  if (kind === 'same') return <Typography.Text type="secondary">{t('hot.change.same')}</Typography.Text>;
  return null;
}

function Titled({ row, avatar }: { row: HotRow; avatar?: boolean }) {
  return (
    <Space>
      {row.cover ? <Avatar shape={avatar ? 'circle' : 'square'} size={40} src={row.cover} /> : null}
      <Space direction="vertical" size={0}>
        <Typography.Text strong>{row.title}</Typography.Text>
        {row.author ? <Typography.Text type="secondary">{row.author}</Typography.Text> : null}
      </Space>
    </Space>
  );
}

export default function HotListPage() {
  const { t } = useContentT();
  const location = useLocation();
  const navigate = useNavigate();
  const page = PAGE_OF_PATH[location.pathname] ?? 'keywords';
  const boards = PAGE_BOARDS[page];
  const [board, setBoard] = useState(boards[0]);
  const [meta, setMeta] = useState<HotBoard | null>(null);
  const table = useRef<DataTableRef>(null);

  useEffect(() => {
    setBoard(PAGE_BOARDS[page][0]);
    setMeta(null);
  }, [page]);
  // a board not read yet is being read by the job: look again shortly
  useEffect(() => {
    if (!meta || meta.fetched_at > 0) return;
    const timer = setTimeout(() => table.current?.refresh(), PENDING_RETRY_MS);
    return () => clearTimeout(timer);
  }, [meta]);

  const useTopics = (topics: string[]) => {
    stashReleaseTopics(topics);
    navigate(RELEASE_FORM_PATH);
  };

  const columns = useMemo<DataTableColumn<HotRow>[]>(() => {
    const rank: DataTableColumn<HotRow> = { title: t('hot.col.rank'), dataIndex: 'rank', width: 80, fixed: 'left' };
    const change: DataTableColumn<HotRow> = { title: t('hot.col.change'), dataIndex: 'rank_change', width: 110, render: (v: string) => <Change value={v} /> };
    const open = (row: HotRow) =>
      row.share_url ? (
        <Typography.Link href={row.share_url} target="_blank" rel="noreferrer">
          {t('hot.open')}
        </Typography.Link>
      ) : null;
    const actions = (render: (row: HotRow) => React.ReactNode): DataTableColumn<HotRow> => ({
      title: t('hot.col.actions'),
      key: 'actions',
      width: 200,
      fixed: 'right',
      render: (_, row) => <Space>{render(row)}</Space>,
    });
    switch (page) {
      case 'music':
        return [
          rank,
          { title: t('hot.col.song'), dataIndex: 'title', render: (_, row) => <Titled row={row} /> },
          { title: t('hot.col.duration'), dataIndex: 'duration', width: 100, render: (v: number) => songLength(v) },
          { title: t('hot.col.uses'), dataIndex: 'heat', width: 140, render: num },
          actions((row) => (
            <>
              <Button
                size="small"
                type="primary"
                onClick={() => {
                  stashMixMusic({ title: row.title, author: row.author });
                  navigate(MIX_FORM_PATH);
                }}
                data-testid={`hot-use-music-${row.rank}`}
              >
                {t('hot.useMusic')}
              </Button>
              {open(row)}
            </>
          )),
        ];
      case 'keywords':
        return [
          rank,
          {
            title: t('hot.col.word'),
            dataIndex: 'title',
            render: (v: string, row) => (
              <Space>
                <Typography.Text strong>{v}</Typography.Text>
                {row.label ? <Tag color="red">{row.label}</Tag> : null}
              </Space>
            ),
          },
          { title: t('hot.col.heat'), dataIndex: 'heat', width: 160, render: num },
          actions((row) => (
            <Button size="small" type="primary" onClick={() => useTopics([row.title])} data-testid={`hot-use-topic-${row.rank}`}>
              {t('hot.useTopic')}
            </Button>
          )),
        ];
      case 'video':
        return [
          rank,
          { title: t('hot.col.video'), dataIndex: 'title', render: (_, row) => <Titled row={row} /> },
          {
            title: t('hot.col.hotWords'),
            dataIndex: 'hot_words',
            width: 200,
            render: (words: string[]) => words.map((w) => <Tag key={w}>#{w}</Tag>),
          },
          { title: t('hot.col.plays'), dataIndex: 'plays', width: 120, render: num },
          { title: t('hot.col.likes'), dataIndex: 'likes', width: 110, render: num },
          { title: t('hot.col.comments'), dataIndex: 'comments', width: 110, render: num },
          { title: t('hot.col.heat'), dataIndex: 'heat', width: 120, render: num },
          actions((row) => (
            <>
              <Button size="small" type="primary" disabled={!row.hot_words.length} onClick={() => useTopics(row.hot_words)} data-testid={`hot-use-topic-${row.rank}`}>
                {t('hot.useTopics')}
              </Button>
              {open(row)}
            </>
          )),
        ];
      case 'topic':
        return [
          rank,
          { title: t('hot.col.topic'), dataIndex: 'title', render: (v: string) => <Typography.Text strong>#{v}</Typography.Text> },
          change,
          { title: t('hot.col.influence'), dataIndex: 'heat', width: 140, render: num },
          actions((row) => (
            <Button size="small" type="primary" onClick={() => useTopics([row.title])} data-testid={`hot-use-topic-${row.rank}`}>
              {t('hot.useTopic')}
            </Button>
          )),
        ];
      default:
        return [
          rank,
          { title: t('hot.col.creator'), dataIndex: 'title', width: 240, render: (_, row) => <Titled row={row} avatar /> },
          change,
          { title: t('hot.col.followers'), dataIndex: 'followers', width: 130, render: num },
          { title: t('hot.col.influence'), dataIndex: 'heat', width: 120, render: num },
          {
            title: t('hot.col.videos'),
            dataIndex: 'videos',
            render: (videos: HotRow['videos']) => (
              <Space direction="vertical" size={0}>
                {videos.map((v) => (
                  <Typography.Link key={v.share_url} href={v.share_url} target="_blank" rel="noreferrer">
                    {v.title}
                  </Typography.Link>
                ))}
              </Space>
            ),
          },
        ];
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [page, t]);

  return (
    <div data-testid={`hot-page-${page}`}>
      <PageHeader title={t(TITLES[page])} subTitle={t(`hot.subtitle.${page}`)} />
      {boards.length > 1 ? (
        <Segmented
          style={{ marginBottom: 12 }}
          value={board}
          onChange={(v) => setBoard(String(v))}
          options={boards.map((b) => ({ value: b, label: t(`hot.board.${b}`) }))}
          data-testid="hot-boards"
        />
      ) : null}
      {meta && meta.fetched_at > 0 ? (
        <Typography.Paragraph type="secondary" data-testid="hot-meta">
          {t('hot.meta', { platform: t(`hot.platform.${meta.platform}`, { defaultValue: meta.platform }), day: meta.day, at: formatTime(meta.fetched_at) })}
          {meta.simulated ? (
            <>
              {' '}
              <SimulatedTag testId="hot-simulated" />
            </>
          ) : null}
        </Typography.Paragraph>
      ) : null}
      {meta && meta.fetched_at === 0 ? <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('hot.pending')} data-testid="hot-pending" /> : null}
      {meta?.last_error ? <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={t('hot.failed', { reason: meta.last_error })} data-testid="hot-failed" /> : null}
      <DataTable<HotRow>
        ref={table}
        id={`hot-${page}`}
        api={hotListUrl(page)}
        method="get"
        params={{ board }}
        pagination={false}
        rowKey="rank"
        columns={columns}
        scrollX={900}
        onLoad={(_, raw) => setMeta(raw as HotBoard)}
      />
    </div>
  );
}
