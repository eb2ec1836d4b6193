/**
 * /comment_management — every comment of every authorized account (docs/api-engagement.md
 * `task.merchant_comment/*`): the kit's filters (platform, account, video, time, replied, intent),
 * reply by hand, hide, mark spam, sync now; accounts whose platform has no comment API are named.
 */
import { EyeInvisibleOutlined, MessageOutlined, StopOutlined, SyncOutlined, UndoOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { engagementKeys, engagementUrls, fetchCommentAccounts, replyComment, setCommentStatus, syncComments } from '@/api/engagement';
import type { EngagementComment } from '@/api/engagement/types';
import { useWrite } from '@/api/mutations';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { commentFilterFields } from '../filters';
import { useEngagementT } from '../i18n';
import ReplySuggestions from './ReplySuggestions';

const INTENT_COLORS: Record<string, string> = { purchase: 'green', contact: 'blue', spam: 'red' };

export default function CommentManagementPage() {
  const { t } = useEngagementT();
  const [form] = Form.useForm<{ text: string }>();
  const [replying, setReplying] = useState<EngagementComment | null>(null);
  const accounts = useQuery({ queryKey: engagementKeys.commentAccounts, queryFn: fetchCommentAccounts });
  const statusWrite = useWrite(({ id, to }: { id: number; to: 'hide' | 'spam' | 'show' }) => setCommentStatus(id, to), engagementKeys.comments);
  const sync = useWrite(syncComments, engagementKeys.comments);
  const reply = useWrite(({ id, text }: { id: number; text: string }) => replyComment(id, text), engagementKeys.comments);
  const unsupported = (accounts.data ?? []).filter((a) => !a.supported);

  const status = async (row: EngagementComment, to: 'hide' | 'spam' | 'show') => {
    try {
      await statusWrite.mutateAsync({ id: row.id, to });
    } catch {
      /* toasted */
    }
  };

  const columns = useMemo<DataTableColumn<EngagementComment>[]>(
    () => [
      { title: t('comment.content'), dataIndex: 'content', width: 260, render: (v: string, row) => <span data-testid={`comment-text-${row.id}`}>{v}</span> },
      {
        title: t('comment.intent'),
        dataIndex: 'intent',
        width: 120,
        render: (v: string) => (v ? <Tag color={INTENT_COLORS[v]}>{t(`intent.${v}`)}</Tag> : null),
      },
      { title: t('comment.account'), dataIndex: 'account_name', width: 140 },
      { title: t('comment.platform'), dataIndex: 'platform', width: 90, render: (v: string) => <Tag>{t(`platform.${v}`)}</Tag> },
      { title: t('comment.video'), dataIndex: 'item_title', width: 180, render: (v: string, row) => v || row.item_id },
      { title: t('comment.time'), dataIndex: 'created_at', width: 170, sorter: true, render: (v: number) => formatTime(v) },
      {
        title: t('comment.replied'),
        dataIndex: 'replied',
        width: 200,
        render: (v: boolean, row) =>
          v ? (
            <Typography.Text data-testid={`comment-reply-${row.id}`}>↳ {row.reply_text}</Typography.Text>
          ) : (
            <Typography.Text type="secondary">{t(`auto.${row.auto_state}`, { defaultValue: t('comment.repliedNo') })}</Typography.Text>
          ),
      },
      { title: t('comment.status'), dataIndex: 'status', width: 100, render: (v: string) => t(`status.${v}`) },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 230,
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<MessageOutlined />} onClick={() => setReplying(row)} data-testid={`comment-reply-btn-${row.id}`}>
              {t('comment.reply')}
            </Button>
            {row.status === 'visible' ? (
              <>
                <Button type="link" size="small" icon={<EyeInvisibleOutlined />} onClick={() => void status(row, 'hide')} data-testid={`comment-hide-${row.id}`}>
                  {t('comment.hide')}
                </Button>
                <Button type="link" size="small" danger icon={<StopOutlined />} onClick={() => void status(row, 'spam')} data-testid={`comment-spam-${row.id}`}>
                  {t('comment.spam')}
                </Button>
              </>
            ) : (
              <Button type="link" size="small" icon={<UndoOutlined />} onClick={() => void status(row, 'show')} data-testid={`comment-show-${row.id}`}>
                {t('comment.show')}
              </Button>
            )}
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const accountOptions = useMemo(
    () => (accounts.data ?? []).filter((a) => a.supported).map((a) => ({ value: a.id, label: a.nickname || String(a.id) })),
    [accounts.data],
  );
  const filterFields = useMemo(() => commentFilterFields(t, accountOptions), [t, accountOptions]);

  return (
    <div data-testid="comment-management-page">
      <PageHeader
        title={t('common:menu.commentManagement')}
        subTitle={t('comment.subtitle')}
        extra={
          <Button
            icon={<SyncOutlined />}
            loading={sync.isPending}
            data-testid="comment-sync"
            onClick={() => sync.mutate(undefined, { onSuccess: (r) => feedback.success(t('comment.synced', { added: r.added })) })}
          >
            {t('comment.sync')}
          </Button>
        }
      />
      {unsupported.length > 0 && (
        <Alert
          type="info"
          showIcon
          style={{ marginBottom: 12 }}
          data-testid="comment-unsupported"
          title={t('comment.unsupported', { names: unsupported.map((a) => `${a.nickname}（${a.reason}）`).join('，') })}
        />
      )}
      <DataTable<EngagementComment> id="comments" queryKey={engagementKeys.comments} api={engagementUrls.comments} exportApi={engagementUrls.commentsExport} method="post" columns={columns} filterFields={filterFields} scrollX={1400} />
      <ModalForm<{ text: string }>
        open={!!replying}
        form={form}
        title={t('comment.replyTitle')}
        testId="comment-reply-form"
        initialValues={{ text: '' }}
        onCancel={() => setReplying(null)}
        onSubmit={async (v) => {
          if (!replying) return;
          await reply.mutateAsync({ id: replying.id, text: v.text.trim() });
          feedback.success(t('comment.replied_ok'));
          setReplying(null);
        }}
      >
        <Typography.Paragraph type="secondary">{replying?.content}</Typography.Paragraph>
        {replying ? <ReplySuggestions key={replying.id} commentId={replying.id} onPick={(text) => form.setFieldsValue({ text })} /> : null}
        <Form.Item name="text" label={t('comment.replyText')} extra={t('comment.replyHelp')} rules={[{ required: true, whitespace: true, max: 30 }]}>
          <Input maxLength={30} showCount data-testid="comment-reply-text" />
        </Form.Item>
      </ModalForm>
    </div>
  );
}
