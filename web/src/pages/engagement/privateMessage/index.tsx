/**
 * /private_message — the Douyin private-message workbench (docs/api-engagement.md
 * `msg.merchant_private_msg/*`): conversations per account, one conversation's thread, a reply by hand
 * or with a saved quick reply. A refusal (over 500 characters, DY's 48-hour window or its 5 messages
 * before the customer answers) is shown under the text in the caller's language. Kuaishou, WeChat
 * Channels and Xiaohongshu have no message API: the page says so.
 */
import { RobotOutlined, SendOutlined } from '@ant-design/icons';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Alert, Badge, Button, Card, Col, Empty, Form, Input, Row, Select, Space, Spin, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { engagementKeys, fetchConversations, fetchMessageAccounts, fetchQuickReplies, fetchThread, sendPrivateMessage } from '@/api/engagement';
import { useWrite } from '@/api/mutations';
import type { Conversation } from '@/api/engagement/types';
import { RequestError } from '@/api/request';
import { LinkedText } from '@/components/MenuLink';
import PageHeader from '@/components/PageHeader';
import { formatTime } from '@/utils/format';
import { useEngagementT } from '../i18n';

const MAX = 500;

export default function PrivateMessagePage() {
  const { t } = useEngagementT();
  const qc = useQueryClient();
  const [accountId, setAccountId] = useState(0);
  const [open, setOpen] = useState<Conversation | null>(null);
  const [text, setText] = useState('');
  const [error, setError] = useState('');
  const accounts = useQuery({ queryKey: engagementKeys.pmAccounts, queryFn: fetchMessageAccounts });
  // the thread is set from the answer; the conversations' last message reads again
  const write = useWrite(sendPrivateMessage, engagementKeys.conversations);
  const conversations = useQuery({
    queryKey: [...engagementKeys.conversations, accountId],
    queryFn: () => fetchConversations(accountId),
    refetchInterval: 10_000,
  });
  const thread = useQuery({
    queryKey: [...engagementKeys.thread, open?.account_id, open?.conversation_id],
    queryFn: () => fetchThread(open!.account_id, open!.conversation_id),
    enabled: !!open,
    refetchInterval: 10_000,
  });
  const quick = useQuery({ queryKey: engagementKeys.quickReplies, queryFn: fetchQuickReplies });
  useEffect(() => {
    setText('');
    setError('');
  }, [open?.account_id, open?.conversation_id]);

  const usable = (accounts.data ?? []).filter((a) => a.platform === 'dy');
  const blocked = open ? (accounts.data ?? []).find((a) => a.id === open.account_id && !a.supported) : undefined;

  const send = async (quickReplyId = 0) => {
    if (!open) return;
    if (!quickReplyId && !text.trim()) {
      setError(t('pm.required'));
      return;
    }
    setError('');
    try {
      const rows = await write.mutateAsync({
        account_id: open.account_id,
        conversation_id: open.conversation_id,
        text: quickReplyId ? '' : text,
        quick_reply_id: quickReplyId,
      });
      qc.setQueryData([...engagementKeys.thread, open.account_id, open.conversation_id], rows);
      setText('');
    } catch (e) {
      setError(e instanceof RequestError ? e.message : String(e));
    }
  };

  return (
    <div data-testid="private-message-page">
      <PageHeader title={t('common:menu.privateMessage')} subTitle={<LinkedText text={t('pm.subtitle')} />} />
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('pm.noApi')} data-testid="pm-no-api" />
      <Row gutter={16}>
        <Col xs={24} md={9}>
          <Card
            size="small"
            title={t('pm.conversations')}
            extra={
              <Select
                size="small"
                style={{ width: 180 }}
                value={accountId}
                onChange={(v) => {
                  setAccountId(v);
                  setOpen(null);
                }}
                options={[{ value: 0, label: t('pm.allAccounts') }, ...usable.map((a) => ({ value: a.id, label: a.nickname }))]}
                data-testid="pm-account"
              />
            }
          >
            <Spin spinning={conversations.isLoading}>
              {(conversations.data?.rows ?? []).length === 0 && <Empty description={t('pm.empty')} />}
              {(conversations.data?.rows ?? []).map((c) => (
                <div
                  key={`${c.account_id}:${c.conversation_id}`}
                  onClick={() => setOpen(c)}
                  role="button"
                  tabIndex={0}
                  onKeyDown={(e) => e.key === 'Enter' && setOpen(c)}
                  style={{
                    display: 'flex',
                    justifyContent: 'space-between',
                    gap: 8,
                    padding: '8px 4px',
                    cursor: 'pointer',
                    borderBottom: '1px solid rgba(5,5,5,0.06)',
                    background: open?.conversation_id === c.conversation_id && open.account_id === c.account_id ? 'rgba(22,119,255,0.08)' : undefined,
                  }}
                  data-testid={`pm-conversation-${c.conversation_id}`}
                >
                  <div style={{ minWidth: 0 }}>
                    <Space>
                      <Typography.Text strong>{c.customer_name || c.customer_id}</Typography.Text>
                      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                        {c.account_name}
                      </Typography.Text>
                    </Space>
                    <div>
                      <Typography.Text type="secondary" ellipsis style={{ maxWidth: 260 }}>
                        {c.last_direction === 'out' ? '↳ ' : ''}
                        {c.last_text}
                      </Typography.Text>
                    </div>
                  </div>
                  <Space orientation="vertical" size={0} align="end">
                    <Typography.Text type="secondary" style={{ fontSize: 12 }}>
                      {formatTime(c.last_at)}
                    </Typography.Text>
                    <Badge count={c.messages} color="#bbb" title={t('pm.messages', { count: c.messages })} />
                  </Space>
                </div>
              ))}
            </Spin>
          </Card>
        </Col>
        <Col xs={24} md={15}>
          <Card size="small" title={open ? `${t('pm.customer')}：${open.customer_name || open.customer_id} · ${open.account_name}` : t('pm.pick')} data-testid="pm-thread">
            {!open ? (
              <Empty description={t('pm.pick')} />
            ) : (
              <>
                <div style={{ maxHeight: 420, overflowY: 'auto', marginBottom: 12 }}>
                  {(thread.data ?? []).map((m) => (
                    <div key={m.id} style={{ display: 'flex', justifyContent: m.direction === 'out' ? 'flex-end' : 'flex-start', margin: '6px 0' }}>
                      <div
                        data-testid={`pm-message-${m.direction}`}
                        style={{
                          maxWidth: '75%',
                          padding: '6px 10px',
                          borderRadius: 8,
                          background: m.direction === 'out' ? '#e6f4ff' : '#f5f5f5',
                        }}
                      >
                        <div>{m.text}</div>
                        <Typography.Text type="secondary" style={{ fontSize: 11 }}>
                          {formatTime(m.created_at)}{' '}
                          {m.auto && (
                            <Tag icon={<RobotOutlined />} color="purple" style={{ marginLeft: 4 }}>
                              {t('pm.auto')}
                            </Tag>
                          )}
                        </Typography.Text>
                      </div>
                    </div>
                  ))}
                </div>
                {blocked && <Alert type="warning" showIcon style={{ marginBottom: 8 }} title={t('pm.blocked', { reason: blocked.reason })} data-testid="pm-blocked" />}
                <Form.Item validateStatus={error ? 'error' : undefined} help={error || undefined} style={{ marginBottom: 8 }}>
                  <Input.TextArea
                    value={text}
                    onChange={(e) => setText(e.target.value)}
                    autoSize={{ minRows: 2, maxRows: 5 }}
                    // counts against the limit the server holds to; a longer text is marked, not cut, and refused by name
                    count={{ show: true, max: MAX }}
                    placeholder={t('pm.placeholder')}
                    data-testid="pm-text"
                  />
                </Form.Item>
                <Space>
                  <Select
                    style={{ width: 240 }}
                    placeholder={t('pm.quickPlaceholder')}
                    value={null}
                    onChange={(id: number) => void send(id)}
                    options={(quick.data ?? []).map((q) => ({ value: q.id, label: q.text }))}
                    data-testid="pm-quick"
                  />
                  <Button type="primary" icon={<SendOutlined />} loading={write.isPending} onClick={() => void send()} data-testid="pm-send">
                    {t('pm.send')}
                  </Button>
                </Space>
              </>
            )}
          </Card>
        </Col>
      </Row>
    </div>
  );
}
