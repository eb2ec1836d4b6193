/**
 * /dou_wei — "抖微": Douyin leads reach the staff on WeChat (docs/spec-decisions.md). The merchant's
 * WeChat official account (`wechat.MerchantWechat/*`: AppID, AppSecret, the "new lead" template), each
 * lead-taking staff member's openid (bound by scanning a QR code of the account, `msg.wxgzh/bind_qr`,
 * or typed: `msg.wxgzh/bind`) and the notices sent (`msg.wxgzh/log`). Not
 * configured: the page says the notices stay in the console.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Card, Form, Input, Popconfirm, Skeleton, Space, Switch, Table, Tag, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { bindWxOpenid, engagementKeys, fetchWxConfig, fetchWxLog, fetchWxStaff, saveWxConfig } from '@/api/engagement';
import type { LeadNotice, WxConfigReq, WxStaff } from '@/api/engagement/types';
import { useWrite } from '@/api/mutations';
import { RequestError } from '@/api/request';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { useEngagementT } from '../i18n';
import BindDialog from './BindDialog';

const STATE_COLORS: Record<string, string> = { pending: 'blue', sent: 'green', failed: 'red', off: 'default' };

/** Unbinding: the staff member's notices stay in the console until they bind again. */
function UnbindButton({ row }: { row: WxStaff }) {
  const { t } = useEngagementT();
  const unbind = useWrite((id: number) => bindWxOpenid(id, ''), engagementKeys.wechatStaff);
  return (
    <Popconfirm title={t('wx.unbindConfirm', { name: row.nickname })} onConfirm={() => void unbind.mutateAsync(row.id).then(() => feedback.success(t('wx.saved')))}>
      <Button size="small" danger loading={unbind.isPending} data-testid={`wx-unbind-${row.id}`}>
        {t('wx.unbind')}
      </Button>
    </Popconfirm>
  );
}

function OpenidCell({ row }: { row: WxStaff }) {
  const { t } = useEngagementT();
  const [value, setValue] = useState(row.openid);
  const [error, setError] = useState('');
  const bind = useWrite(({ id, openid }: { id: number; openid: string }) => bindWxOpenid(id, openid), engagementKeys.wechatStaff);
  useEffect(() => setValue(row.openid), [row.openid]);
  const save = async () => {
    setError('');
    try {
      await bind.mutateAsync({ id: row.id, openid: value.trim() });
      feedback.success(t('wx.saved'));
    } catch (e) {
      setError(e instanceof RequestError ? e.message : String(e));
    }
  };
  return (
    <Form.Item validateStatus={error ? 'error' : undefined} help={error || undefined} style={{ margin: 0 }}>
      <Space.Compact style={{ width: 380 }}>
        <Input value={value} onChange={(e) => setValue(e.target.value)} placeholder={t('wx.openidPlaceholder')} data-testid={`wx-openid-${row.id}`} />
        <Button onClick={() => void save()} data-testid={`wx-bind-${row.id}`}>
          {t('wx.bind')}
        </Button>
      </Space.Compact>
    </Form.Item>
  );
}

export default function DouWeiPage() {
  const { t } = useEngagementT();
  const [form] = Form.useForm<WxConfigReq>();
  const config = useQuery({ queryKey: engagementKeys.wechatConfig, queryFn: fetchWxConfig });
  const staff = useQuery({ queryKey: engagementKeys.wechatStaff, queryFn: fetchWxStaff });
  const log = useQuery({ queryKey: engagementKeys.wechatLog, queryFn: fetchWxLog, refetchInterval: 15_000 });
  const write = useWrite(saveWxConfig, engagementKeys.wechatConfig);
  const [binding, setBinding] = useState<WxStaff | null>(null);
  useEffect(() => {
    if (config.data) form.setFieldsValue({ app_id: config.data.app_id, app_secret: '', template_id: config.data.template_id, server_token: '', enabled: config.data.app_id ? config.data.enabled : true });
  }, [config.data, form]);

  const save = async (v: WxConfigReq) => {
    try {
      await write.mutateAsync({ ...v, app_secret: v.app_secret ?? '', server_token: v.server_token ?? '' });
      feedback.success(t('wx.saved'));
    } catch (e) {
      if (e instanceof RequestError && e.field) form.setFields([{ name: e.field as keyof WxConfigReq, errors: [e.message] }]);
      else feedback.error(e instanceof Error ? e.message : String(e));
    }
  };

  return (
    <div data-testid="dou-wei-page">
      <PageHeader title={t('common:menu.douWei')} subTitle={t('wx.subtitle')} />
      {config.data &&
        (config.data.configured ? (
          <Alert type="success" showIcon style={{ marginBottom: 12 }} title={t('wx.configured')} data-testid="wx-state" />
        ) : (
          <Alert type="warning" showIcon style={{ marginBottom: 12 }} title={config.data.reason} data-testid="wx-state" />
        ))}
      {config.data?.sandbox && <Alert type="info" showIcon style={{ marginBottom: 12 }} title={t('wx.sandbox', { secret: config.data.sandbox_secret, token: config.data.sandbox_server_token })} data-testid="wx-sandbox" />}
      <Card size="small" title={t('wx.config')} style={{ marginBottom: 16 }}>
        {/* The form appears once the saved configuration is in: filled in later, it overwrote what the
            merchant had typed meanwhile on a slow load. */}
        {!config.data ? (
          <div data-testid="wx-config-loading">
            <Skeleton active />
          </div>
        ) : (
          <Form<WxConfigReq> form={form} layout="vertical" onFinish={(v) => void save(v)} style={{ maxWidth: 520 }}>
            <Form.Item name="app_id" label={t('wx.appId')} rules={[{ required: true, whitespace: true }]}>
              <Input data-testid="wx-app-id" />
            </Form.Item>
            <Form.Item name="app_secret" label={t('wx.appSecret')} extra={config.data?.secret_set ? t('wx.secretKept') : undefined} rules={config.data?.secret_set ? [] : [{ required: true, whitespace: true }]}>
              <Input.Password autoComplete="new-password" data-testid="wx-app-secret" />
            </Form.Item>
            <Form.Item name="template_id" label={t('wx.templateId')} extra={t('wx.templateHelp')} rules={[{ required: true, whitespace: true }]}>
              <Input data-testid="wx-template-id" />
            </Form.Item>
            <Form.Item label={t('wx.callbackUrl')} extra={t('wx.callbackHelp')}>
              <Typography.Text copyable code data-testid="wx-callback-url">
                {config.data?.callback_url}
              </Typography.Text>
            </Form.Item>
            <Form.Item
              name="server_token"
              label={t('wx.serverToken')}
              extra={config.data?.server_token_set ? t('wx.secretKept') : t('wx.serverTokenHelp')}
              rules={[{ pattern: /^[A-Za-z0-9]{3,32}$/, message: t('wx.serverTokenRule') }]}
            >
              <Input.Password autoComplete="new-password" data-testid="wx-server-token" />
            </Form.Item>
            <Form.Item name="enabled" label={t('wx.enabled')} valuePropName="checked">
              <Switch data-testid="wx-enabled" />
            </Form.Item>
            <Button type="primary" htmlType="submit" loading={write.isPending} data-testid="wx-save">
              {t('wx.save')}
            </Button>
          </Form>
        )}
      </Card>
      <Card size="small" title={t('wx.staff')} style={{ marginBottom: 16 }}>
        <Table<WxStaff>
          rowKey="id"
          size="small"
          pagination={false}
          loading={staff.isLoading}
          dataSource={staff.data ?? []}
          columns={[
            { title: t('wx.to'), dataIndex: 'nickname', width: 160 },
            { title: t('wx.openid'), key: 'openid', render: (_, row) => <OpenidCell row={row} /> },
            { title: '', key: 'bound', width: 100, render: (_, row) => (row.openid ? <Tag color="green" data-testid={`wx-bound-${row.id}`}>{t('wx.bound')}</Tag> : <Tag data-testid={`wx-bound-${row.id}`}>{t('wx.unbound')}</Tag>) },
            {
              title: '',
              key: 'actions',
              width: 200,
              render: (_, row) => (
                <Space>
                  <Button size="small" type="primary" onClick={() => setBinding(row)} data-testid={`wx-scan-bind-${row.id}`}>
                    {row.openid ? t('wx.rebind') : t('wx.scanBind')}
                  </Button>
                  {row.openid ? <UnbindButton row={row} /> : null}
                </Space>
              ),
            },
          ]}
        />
      </Card>
      <BindDialog staff={binding} sandbox={Boolean(config.data?.sandbox)} onClose={() => setBinding(null)} />
      <Card size="small" title={t('wx.log')}>
        <Table<LeadNotice>
          rowKey="id"
          size="small"
          loading={log.isLoading}
          dataSource={log.data ?? []}
          pagination={{ pageSize: 10 }}
          columns={[
            { title: t('wx.lead'), dataIndex: 'name', render: (v: string, n) => `${v}：${n.content}` },
            { title: t('wx.to'), dataIndex: 'user_id', width: 120, render: (v: number) => staff.data?.find((s) => s.id === v)?.nickname ?? v },
            { title: t('wx.state'), dataIndex: 'wx_state', width: 100, render: (v: string, n) => <Tag color={STATE_COLORS[v]} data-testid={`wx-log-state-${n.id}`}>{t(`wx.states.${v}`, { defaultValue: v })}</Tag> },
            { title: t('wx.reason'), dataIndex: 'wx_reason' },
            { title: t('wx.time'), dataIndex: 'created_at', width: 170, render: (v: number) => formatTime(v) },
          ]}
        />
      </Card>
    </div>
  );
}
