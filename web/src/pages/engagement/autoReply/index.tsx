/**
 * /comment_reply — keyword auto-reply rules (docs/api-engagement.md `task.merchant_comment_keyword/*`):
 * keywords and how they match (exact, contains, jieba words), 1–5 reply scripts (SPEC §5), accounts and
 * videos, active hours, a daily cap and a gap per account; and the reply log.
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Input, InputNumber, Popconfirm, Radio, Select, Space, Switch, Tabs, Tag } from 'antd';
import { useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { deleteRule, engagementKeys, engagementUrls, fetchCommentAccounts, saveRule } from '@/api/engagement';
import { useWrite } from '@/api/mutations';
import type { ReplyLog, Rule, RuleReq } from '@/api/engagement/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import CopyCheckHints from '@/components/CopyCheck';
import ModalForm from '@/components/ModalForm';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useEngagementT } from '../i18n';
import { minuteText, parseMinute, scriptLines, scriptProblem } from '../rules';

interface Values {
  name: string;
  channel: NonNullable<RuleReq['channel']>;
  match_mode: RuleReq['match_mode'];
  keywords: string[];
  replies: string;
  account_ids: number[];
  item_ids: string[];
  start: string;
  end: string;
  daily_cap: number;
  min_gap_s: number;
  enabled: boolean;
}

const blank: Values = {
  name: '',
  channel: 'comment',
  match_mode: 'contains',
  keywords: [],
  replies: '',
  account_ids: [],
  item_ids: [],
  start: '00:00',
  end: '24:00',
  daily_cap: 100,
  min_gap_s: 30,
  enabled: true,
};

const valuesOf = (r: Rule): Values => ({
  name: r.name,
  // the rule as read declares these as plain strings; they are the values the form sends
  channel: r.channel as Values['channel'],
  match_mode: r.match_mode as Values['match_mode'],
  keywords: r.keywords,
  replies: r.replies.join('\n'),
  account_ids: r.account_ids,
  item_ids: r.item_ids,
  start: minuteText(r.start_minute),
  end: r.end_minute >= 1440 ? '24:00' : minuteText(r.end_minute),
  daily_cap: r.daily_cap,
  min_gap_s: r.min_gap_s,
  enabled: r.enabled,
});

export default function CommentReplyPage() {
  const { t } = useEngagementT();
  const [form] = Form.useForm<Values>();
  const replies = Form.useWatch('replies', form) as string | undefined;
  const [editing, setEditing] = useState<Rule | 'new' | null>(null);
  const accounts = useQuery({ queryKey: engagementKeys.commentAccounts, queryFn: fetchCommentAccounts });
  const remove = useWrite(deleteRule, engagementKeys.rules);
  const save = useWrite(saveRule, engagementKeys.rules);
  const accountName = (id: number) => accounts.data?.find((a) => a.id === id)?.nickname ?? String(id);

  const columns = useMemo<DataTableColumn<Rule>[]>(
    () => [
      { title: t('rule.name'), dataIndex: 'name', width: 160, render: (v: string, row) => <span data-testid={`rule-name-${row.id}`}>{v}</span> },
      { title: t('rule.channel'), dataIndex: 'channel', width: 120, render: (v: string) => t(`rule.channels.${v}`) },
      { title: t('rule.matchMode'), dataIndex: 'match_mode', width: 120, render: (v: string) => t(`rule.modes.${v}`) },
      { title: t('rule.keywords'), dataIndex: 'keywords', width: 200, render: (v: string[]) => v.map((k) => <Tag key={k}>{k}</Tag>) },
      { title: t('rule.replies'), dataIndex: 'replies', width: 240, render: (v: string[]) => v.join(' / ') },
      {
        title: t('rule.accounts'),
        dataIndex: 'account_ids',
        width: 160,
        render: (v: number[]) => (v.length ? v.map(accountName).join('、') : t('rule.accountsAll')),
      },
      { title: t('rule.hours'), key: 'hours', width: 120, render: (_, r) => `${minuteText(r.start_minute)}–${r.end_minute >= 1440 ? '24:00' : minuteText(r.end_minute)}` },
      { title: t('rule.dailyCap'), dataIndex: 'daily_cap', width: 130 },
      { title: t('rule.minGap'), dataIndex: 'min_gap_s', width: 130 },
      { title: t('rule.enabled'), dataIndex: 'enabled', width: 80, render: (v: boolean) => (v ? <Tag color="green">✓</Tag> : <Tag>—</Tag>) },
      {
        title: t('common:actions'),
        key: 'actions',
        width: 170,
        fixed: 'right',
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`rule-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('rule.deleteConfirm', { name: row.name })}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`rule-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, accounts.data],
  );

  const logColumns = useMemo<DataTableColumn<ReplyLog>[]>(
    () => [
      { title: t('rule.time'), dataIndex: 'created_at', width: 170, render: (v: number) => formatTime(v) },
      { title: t('rule.comment'), dataIndex: 'comment', width: 220 },
      { title: t('rule.reply'), dataIndex: 'content', width: 220, render: (v: string, row) => <span data-testid={`log-reply-${row.id}`}>{v}</span> },
      { title: t('rule.ruleName'), dataIndex: 'rule_name', width: 140, render: (v: string, row) => (row.origin === 'auto' ? v : t('rule.origin.manual')) },
      { title: t('comment.account'), dataIndex: 'account_name', width: 140 },
      {
        title: t('rule.error'),
        dataIndex: 'result',
        width: 220,
        render: (v: string, row) => (v === 'sent' ? <Tag color="green">{t('rule.result.sent')}</Tag> : <Tag color="red">{row.error || t('rule.result.failed')}</Tag>),
      },
    ],
    [t],
  );

  const open = editing === 'new' ? blank : editing ? valuesOf(editing) : blank;
  const timeRule = { validator: async (_: unknown, v: string) => (parseMinute(v ?? '') === null ? Promise.reject(new Error(t('rule.timeInvalid'))) : undefined) };

  return (
    <div data-testid="comment-reply-page">
      <PageHeader
        title={t('common:menu.commentReply')}
        subTitle={t('rule.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="rule-add">
            {t('rule.add')}
          </Button>
        }
      />
      <Tabs
        items={[
          { key: 'rules', label: t('common:menu.commentReply'), children: <DataTable<Rule> id="rules" queryKey={engagementKeys.rules} api={engagementUrls.rules} method="post" columns={columns} scrollX={1500} /> },
          { key: 'log', label: t('rule.log'), children: <DataTable<ReplyLog> id="reply-log" queryKey={engagementKeys.rules} api={engagementUrls.replyLog} method="post" columns={logColumns} scrollX={1100} /> },
        ]}
      />
      <ModalForm<Values>
        open={!!editing}
        form={form}
        width={680}
        title={editing === 'new' ? t('rule.add') : t('rule.edit')}
        testId="rule-form"
        initialValues={open}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          await save.mutateAsync({
            id: editing && editing !== 'new' ? editing.id : 0,
            name: v.name.trim(),
            channel: v.channel,
            match_mode: v.match_mode,
            keywords: v.keywords,
            replies: scriptLines(v.replies),
            account_ids: v.account_ids,
            item_ids: v.item_ids,
            start_minute: parseMinute(v.start) ?? 0,
            end_minute: parseMinute(v.end) ?? 1440,
            daily_cap: v.daily_cap,
            min_gap_s: v.min_gap_s,
            enabled: v.enabled,
          });
          feedback.success(t('common:savedSuccessfully'));
          setEditing(null);
        }}
      >
        <Form.Item name="name" label={t('rule.name')} rules={[{ required: true, whitespace: true, max: 50 }]}>
          <Input data-testid="rule-form-name" />
        </Form.Item>
        <Form.Item name="channel" label={t('rule.channel')}>
          <Radio.Group optionType="button" options={['comment', 'message'].map((c) => ({ value: c, label: t(`rule.channels.${c}`) }))} />
        </Form.Item>
        <Form.Item name="match_mode" label={t('rule.matchMode')}>
          <Radio.Group optionType="button" options={['exact', 'contains', 'segmented'].map((m) => ({ value: m, label: t(`rule.modes.${m}`) }))} data-testid="rule-form-mode" />
        </Form.Item>
        <Form.Item name="keywords" label={t('rule.keywords')} extra={t('rule.keywordsHelp')} rules={[{ required: true, type: 'array', min: 1, message: t('rule.keywordsRequired') }]}>
          <Select mode="tags" open={false} tokenSeparators={[',', '，']} data-testid="rule-form-keywords" />
        </Form.Item>
        <Form.Item
          name="replies"
          label={t('rule.replies')}
          extra={
            <>
              <div>{t('rule.repliesHelp')}</div>
              {/* The copy precheck as the merchant types: these replies go out under their posts. */}
              <CopyCheckHints text={replies} testId="rule-replies-copy-check" onApply={(next) => form.setFieldsValue({ replies: next })} />
            </>
          }
          rules={[
            {
              validator: async (_, v: string) => {
                const p = scriptProblem(scriptLines(v ?? ''));
                if (p) throw new Error(t(p.key, { n: p.n }));
              },
            },
          ]}
        >
          <Input.TextArea autoSize={{ minRows: 3, maxRows: 6 }} data-testid="rule-form-replies" />
        </Form.Item>
        <Form.Item name="account_ids" label={t('rule.accounts')}>
          <Select
            mode="multiple"
            allowClear
            placeholder={t('rule.accountsAll')}
            options={(accounts.data ?? []).filter((a) => a.supported).map((a) => ({ value: a.id, label: a.nickname }))}
          />
        </Form.Item>
        <Form.Item name="item_ids" label={t('rule.items')} extra={t('rule.itemsHelp')}>
          <Select mode="tags" open={false} />
        </Form.Item>
        <Space>
          <Form.Item name="start" label={t('rule.start')} rules={[timeRule]}>
            <Input style={{ width: 100 }} placeholder="09:00" />
          </Form.Item>
          <Form.Item name="end" label={t('rule.end')} rules={[timeRule]}>
            <Input style={{ width: 100 }} placeholder="22:00" />
          </Form.Item>
          <Form.Item name="daily_cap" label={t('rule.dailyCap')}>
            <InputNumber min={1} max={1000} data-testid="rule-form-cap" />
          </Form.Item>
          <Form.Item name="min_gap_s" label={t('rule.minGap')}>
            <InputNumber min={0} max={3600} data-testid="rule-form-gap" />
          </Form.Item>
        </Space>
        <Form.Item name="enabled" label={t('rule.enabled')} valuePropName="checked">
          <Switch />
        </Form.Item>
      </ModalForm>
    </div>
  );
}
