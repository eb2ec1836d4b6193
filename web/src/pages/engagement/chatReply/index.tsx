/**
 * /chat_reply — replies for private messages (docs/api-engagement.md): the merchant's quick replies
 * (saved phrases picked in the thread on /private_message, `msg.merchant_private_msg/quick_reply_*`)
 * and, read here, the keyword rules that answer the first message of a conversation (channel
 * `message` of `task.merchant_comment_keyword/*`; edited on /comment_reply, one rule table).
 */
import { DeleteOutlined, EditOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Form, Input, InputNumber, Popconfirm, Space, Table, Tag } from 'antd';
import { useState } from 'react';
import { Link } from 'react-router';
import { deleteQuickReply, engagementKeys, fetchMessageRules, fetchQuickReplies, saveQuickReply } from '@/api/engagement';
import type { QuickReply, QuickReplyReq, Rule } from '@/api/engagement/types';
import { useWrite } from '@/api/mutations';
import ModalForm from '@/components/ModalForm';
import { LinkedText } from '@/components/MenuLink';
import PageHeader from '@/components/PageHeader';
import { useEngagementT } from '../i18n';

export default function ChatReplyPage() {
  const { t } = useEngagementT();
  const [form] = Form.useForm<QuickReplyReq>();
  const [editing, setEditing] = useState<QuickReply | 'new' | null>(null);
  const quick = useQuery({ queryKey: engagementKeys.quickReplies, queryFn: fetchQuickReplies });
  const rules = useQuery({ queryKey: engagementKeys.messageRules, queryFn: fetchMessageRules });
  const save = useWrite(saveQuickReply, engagementKeys.quickReplies);
  const remove = useWrite(deleteQuickReply, engagementKeys.quickReplies);

  return (
    <div data-testid="chat-reply-page">
      <PageHeader title={t('common:menu.chatReply')} subTitle={<LinkedText text={t('quick.subtitle')} />} />
      <Card
        size="small"
        title={t('quick.title')}
        style={{ marginBottom: 16 }}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing('new')} data-testid="quick-add">
            {t('quick.add')}
          </Button>
        }
      >
        <Table<QuickReply>
          rowKey="id"
          size="small"
          pagination={false}
          loading={quick.isLoading}
          dataSource={quick.data ?? []}
          columns={[
            { title: t('quick.text'), dataIndex: 'text', render: (v: string, q) => <span data-testid={`quick-text-${q.id}`}>{v}</span> },
            { title: t('quick.sort'), dataIndex: 'sort', width: 90 },
            {
              title: t('common:actions'),
              key: 'actions',
              width: 160,
              render: (_, q) => (
                <Space size={0}>
                  <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(q)} data-testid={`quick-edit-${q.id}`}>
                    {t('quick.edit')}
                  </Button>
                  <Popconfirm
                    title={t('quick.deleteConfirm')}
                    onConfirm={() => remove.mutateAsync(q.id)}
                  >
                    <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`quick-delete-${q.id}`}>
                      {t('quick.delete')}
                    </Button>
                  </Popconfirm>
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <Card size="small" title={t('quick.rules')} extra={<Link to="/comment_reply">{t('quick.openRules')}</Link>}>
        <p style={{ color: '#888' }}>{t('quick.rulesHelp')}</p>
        <Table<Rule>
          rowKey="id"
          size="small"
          pagination={false}
          loading={rules.isLoading}
          dataSource={rules.data?.rows ?? []}
          locale={{ emptyText: t('quick.noRules') }}
          columns={[
            { title: t('rule.name', { defaultValue: 'Name' }), dataIndex: 'name', width: 160 },
            { title: t('quick.keywords'), dataIndex: 'keywords', render: (v: string[]) => v.map((k) => <Tag key={k}>{k}</Tag>) },
            { title: t('quick.replies'), dataIndex: 'replies', render: (v: string[]) => v.join(' / ') },
            { title: t('quick.enabled'), dataIndex: 'enabled', width: 70, render: (v: boolean) => (v ? '✓' : '—') },
          ]}
        />
      </Card>
      <ModalForm<QuickReplyReq>
        open={editing !== null}
        form={form}
        title={editing === 'new' ? t('quick.add') : t('quick.edit')}
        testId="quick-form"
        initialValues={editing && editing !== 'new' ? { id: editing.id, text: editing.text, sort: editing.sort } : { id: 0, text: '', sort: 0 }}
        onCancel={() => setEditing(null)}
        onSubmit={async (v) => {
          await save.mutateAsync({ id: editing && editing !== 'new' ? editing.id : 0, text: v.text, sort: v.sort ?? 0 });
          setEditing(null);
        }}
      >
        <Form.Item name="text" label={t('quick.text')} rules={[{ required: true, whitespace: true }, { max: 500 }]}>
          <Input.TextArea autoSize={{ minRows: 2, maxRows: 6 }} showCount maxLength={520} data-testid="quick-form-text" />
        </Form.Item>
        <Form.Item name="sort" label={t('quick.sort')}>
          <InputNumber min={0} max={9999} data-testid="quick-form-sort" />
        </Form.Item>
      </ModalForm>
    </div>
  );
}
