/**
 * A task's items (forward_video_release?task_id): state with the failure reason, scheduled time,
 * attempts, platform link and stats; publish now / retry, send top comments, reschedule, delete the
 * task. Polls every 3 s while an item publishes or is due within the next minutes.
 */
import { CommentOutlined, DeleteOutlined, FieldTimeOutlined, LikeOutlined, LinkOutlined, MessageOutlined, PlayCircleOutlined, SendOutlined } from '@ant-design/icons';
import { Button, Descriptions, Drawer, Popconfirm, Progress, Space, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { deleteTask, matrixKeys, matrixUrls, publishNow, sendTopComments } from '@/api/matrix';
import { useWrite } from '@/api/mutations';
import type { Item, Platform, Task } from '@/api/matrix/types';
import DataTable, { type DataTableColumn, type DataTableRef } from '@/components/DataTable';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { itemFilterFields } from '../filters';
import { formatCount } from '../format';
import { useMatrixT } from '../i18n';
import { allows, needsPolling } from '../rules';
import { AccountCell, ItemStateTag, PlatformTag, ReviewTag } from '../shared/tags';
import RescheduleModal from './RescheduleModal';

/** How often the items reload while something is publishing or due. */
export const DETAIL_POLL_MS = 3000;

export interface TaskDetailProps {
  task: Task | null;
  onClose: () => void;
}

export default function TaskDetail({ task, onClose }: TaskDetailProps) {
  const { t } = useMatrixT();
  const table = useRef<DataTableRef>(null);
  const [current, setCurrent] = useState<Task | null>(task);
  const [loaded, setLoaded] = useState({ n: 0, poll: false });
  const [rescheduling, setRescheduling] = useState<Task | null>(null);
  // a write marks the area stale: the items here and the tasks' counts behind the drawer read again
  const deleting = useWrite(deleteTask, matrixKeys.all);
  const publishing = useWrite(({ target, platform }: { target: { id: number } | { task_id: number }; platform?: Platform | Task['platform'] }) => publishNow(target, platform), matrixKeys.all);
  const comments = useWrite(sendTopComments);

  useEffect(() => setCurrent(task), [task]);

  // polling: nothing was written, the items are read again while they publish
  useEffect(() => {
    if (!task || !loaded.poll) return;
    const timer = setTimeout(() => table.current?.refresh(), DETAIL_POLL_MS);
    return () => clearTimeout(timer);
  }, [loaded, task]);

  const publish = async (target: { id: number } | { task_id: number }, platform?: Platform | Task['platform']) => {
    try {
      const res = await publishing.mutateAsync({ target, platform });
      feedback.success(t('detail.queued', { count: res.queued }));
    } catch {
      /* toasted */
    }
  };

  // The status sits next to the account, the widths add up to the scroll width and the fixed action
  // column is only as wide as its buttons: nothing hides under it before the table is scrolled.
  const columns = useMemo<DataTableColumn<Item>[]>(
    () => [
      { title: t('item.account'), key: 'account', width: 170, render: (_, row) => <Space orientation="vertical" size={2}><AccountCell account={row.account} /><PlatformTag platform={row.account.platform} /></Space> },
      { title: t('item.state'), dataIndex: 'state', width: 130, render: (_, row) => <ItemStateTag item={row} /> },
      {
        title: t('item.video'),
        key: 'video',
        width: 190,
        render: (_, row) => (
          <Space size={6}>
            {row.video.cover ? <img src={row.video.cover} alt="" style={{ width: 36, height: 48, objectFit: 'cover', borderRadius: 4 }} /> : null}
            <Typography.Text ellipsis style={{ maxWidth: 140 }} title={row.video.name}>
              {row.video.name}
            </Typography.Text>
            {row.video.kind === 'image_note' ? (
              <Tag color="magenta" data-testid={`item-kind-${row.id}`}>
                {t('note.kinds.image_note')}
              </Tag>
            ) : null}
          </Space>
        ),
      },
      { title: t('item.scheduledAt'), dataIndex: 'scheduled_at', width: 190, sorter: true, render: (v: number | null) => <span style={{ whiteSpace: 'nowrap' }}>{formatTime(v)}</span> },
      { title: t('item.title'), dataIndex: 'title', ellipsis: true, width: 180 },
      {
        title: t('item.stats'),
        key: 'stats',
        width: 190,
        render: (_, row) =>
          row.state === 'published' || row.state === 'released' ? (
            <Space size={10} style={{ whiteSpace: 'nowrap' }} data-testid={`item-stats-${row.id}`}>
              <span title={t('item.plays')} data-testid={`item-plays-${row.id}`}>
                <PlayCircleOutlined /> {formatCount(row.plays)}
              </span>
              <span title={t('item.likes')} data-testid={`item-likes-${row.id}`}>
                <LikeOutlined /> {formatCount(row.likes)}
              </span>
              <span title={t('item.commentCount')} data-testid={`item-comment-count-${row.id}`}>
                <MessageOutlined /> {formatCount(row.comment_count)}
              </span>
            </Space>
          ) : (
            ''
          ),
      },
      { title: t('item.attempts'), dataIndex: 'attempts', width: 100 },
      {
        title: t('item.link'),
        key: 'link',
        width: 100,
        render: (_, row) =>
          row.share_url ? (
            <a href={row.share_url} target="_blank" rel="noopener noreferrer" data-testid={`item-link-${row.id}`} style={{ whiteSpace: 'nowrap' }}>
              <LinkOutlined /> {t('item.open')}
            </a>
          ) : (
            ''
          ),
      },
      { title: t('item.publishedAt'), dataIndex: 'published_at', width: 170, render: formatTime, hide: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 200,
        // the buttons the item offers (the server's actions): publish now or retry, send comments
        render: (_, row) => (
          <Space size={0} style={{ whiteSpace: 'nowrap' }}>
            {row.actions.map(({ action, enabled }) =>
              action === 'send_comments' ? (
                <Button
                  key={action}
                  type="link"
                  size="small"
                  icon={<CommentOutlined />}
                  disabled={!enabled}
                  onClick={async () => {
                    try {
                      const res = await comments.mutateAsync(row.id);
                      feedback.success(t('detail.commentsSent', { count: res.sent }));
                    } catch {
                      /* toasted */
                    }
                  }}
                  data-testid={`item-comments-${row.id}`}
                >
                  {t('detail.sendComments')}
                </Button>
              ) : (
                <Button key={action} type="link" size="small" icon={<SendOutlined />} disabled={!enabled} onClick={() => void publish({ id: row.id }, row.account.platform)} data-testid={`item-publish-${row.id}`}>
                  {action === 'retry' ? t('detail.retry') : t('detail.publishNow')}
                </Button>
              ),
            )}
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => itemFilterFields(t), [t]);
  const params = useMemo(() => (task ? { task_id: task.id } : undefined), [task]);
  const c = current?.counts;

  return (
    <Drawer open={task !== null} onClose={onClose} size={1100} title={current ? t('detail.title', { name: current.name }) : ''} destroyOnHidden data-testid="task-detail">
      {current ? (
        <Space orientation="vertical" style={{ width: '100%' }}>
          {/* two columns fit the drawer; labels stay on one line (they wrapped a character a line) */}
          <Descriptions size="small" bordered column={{ xs: 1, sm: 2 }} styles={{ label: { whiteSpace: 'nowrap' } }} data-testid="detail-summary">
            <Descriptions.Item label={t('task.platform')}>
              <PlatformTag platform={current.platform} />
            </Descriptions.Item>
            <Descriptions.Item label={t('task.review')}>
              <ReviewTag row={current} testId="detail-review" />
            </Descriptions.Item>
            <Descriptions.Item label={t('task.progress')}>
              <Progress percent={Math.round(current.progress ?? 0)} size="small" style={{ width: 160 }} />
            </Descriptions.Item>
            <Descriptions.Item label={t('task.accountsVideos')}>
              {current.accounts} / {current.videos}
            </Descriptions.Item>
            <Descriptions.Item label={t('task.schedule')} span={2}>
              {t(`timeMode.${current.time_mode}`)} · {current.start_date} · {t('task.scheduleText', { daily: current.daily_quantity, days: current.days })}
            </Descriptions.Item>
            <Descriptions.Item label={t('detail.counts')} span={2}>
              {c ? (
                <Space size={[0, 4]} wrap>
                  {(['to_release', 'publishing', 'published', 'released', 'failed'] as const).map((s) => (
                    <Tag key={s}>
                      {t(`itemState.${s}`)} {c[s] ?? 0}
                    </Tag>
                  ))}
                </Space>
              ) : null}
            </Descriptions.Item>
          </Descriptions>
          {current.review_state === 'rejected' && current.review_reason ? (
            <Typography.Text type="danger" data-testid="detail-reject-reason">
              {t('review.reason', { reason: current.review_reason })}
            </Typography.Text>
          ) : null}
          <DataTable<Item>
            ref={table}
            id="items"
            queryKey={matrixKeys.all}
            api={matrixUrls.items}
            exportApi={matrixUrls.itemsExport}
            method="post"
            params={params}
            columns={columns}
            filterFields={filterFields}
            scrollX={1450}
            onLoad={(list) => setLoaded((l) => ({ n: l.n + 1, poll: needsPolling(list.rows) }))}
            toolbar={
              <Space wrap>
                <Button
                  icon={<SendOutlined />}
                  disabled={!allows(current, 'publish_all')}
                  onClick={() => void publish({ task_id: current.id }, current.platform)}
                  data-testid="task-publish-all"
                >
                  {t('detail.publishAll')}
                </Button>
                <Button icon={<FieldTimeOutlined />} onClick={() => setRescheduling(current)} data-testid="task-reschedule">
                  {t('detail.reschedule')}
                </Button>
                <Popconfirm
                  title={t('detail.deleteConfirm', { name: current.name })}
                  description={t('detail.deleteHelp')}
                  okText={t('common:delete')}
                  cancelText={t('common:cancel')}
                  okButtonProps={{ danger: true, 'data-testid': 'task-delete-ok' } as never}
                  onConfirm={async () => {
                    try {
                      await deleting.mutateAsync(current.id);
                      feedback.success(t('common:deletedSuccessfully'));
                      onClose();
                    } catch {
                      /* toasted (422 while an item publishes) */
                    }
                  }}
                >
                  <Button danger icon={<DeleteOutlined />} loading={deleting.isPending} data-testid="task-delete">
                    {t('detail.delete')}
                  </Button>
                </Popconfirm>
                {loaded.poll ? (
                  <Typography.Text type="secondary" data-testid="items-polling">
                    {t('detail.polling')}
                  </Typography.Text>
                ) : null}
              </Space>
            }
          />
        </Space>
      ) : null}
      <RescheduleModal
        task={rescheduling}
        onClose={() => setRescheduling(null)}
        onSaved={(saved) => {
          setRescheduling(null);
          setCurrent(saved);
          feedback.success(t('detail.rescheduled'));
        }}
      />
    </Drawer>
  );
}
