/**
 * /private_auth — which accounts may send private messages (docs/api-engagement.md
 * `msg.merchant_private_msg/accounts`): Douyin grants `im.direct_message` to business accounts only,
 * at authorization; the other platforms have no message API. Each "no" says why in the caller's
 * language.
 */
import { useQuery } from '@tanstack/react-query';
import { Alert, Table, Tag } from 'antd';
import { engagementKeys, fetchMessageAccounts } from '@/api/engagement';
import type { MessageAccount } from '@/api/engagement/types';
import { LinkedText } from '@/components/MenuLink';
import PageHeader from '@/components/PageHeader';
import { useEngagementT } from '../i18n';

export default function PrivateAuthPage() {
  const { t } = useEngagementT();
  const accounts = useQuery({ queryKey: engagementKeys.pmAccounts, queryFn: fetchMessageAccounts });
  return (
    <div data-testid="private-auth-page">
      <PageHeader title={t('common:menu.privateAuth')} subTitle={t('pmAuth.subtitle')} />
      <Alert type="info" showIcon style={{ marginBottom: 12 }} title={<LinkedText text={t('pmAuth.reauth')} />} />
      <Table<MessageAccount>
        rowKey="id"
        size="small"
        loading={accounts.isLoading}
        dataSource={accounts.data ?? []}
        pagination={false}
        columns={[
          { title: t('pmAuth.nickname'), dataIndex: 'nickname' },
          { title: t('pmAuth.platform'), dataIndex: 'platform', render: (v: string) => t(`platform.${v}`, { defaultValue: v }) },
          { title: t('pmAuth.type'), dataIndex: 'account_type', render: (v: string) => t(`pmAuth.types.${v}`, { defaultValue: v }) },
          { title: t('pmAuth.scope'), dataIndex: 'scope', render: (v: string) => <span style={{ fontSize: 12 }}>{v || '—'}</span> },
          {
            title: t('pmAuth.state'),
            key: 'state',
            render: (_, a) => (
              <>
                <Tag color={a.supported ? 'green' : 'default'} data-testid={`pm-auth-${a.id}`}>
                  {a.supported ? t('pmAuth.yes') : t('pmAuth.no')}
                </Tag>
                {a.expired && <Tag color="red">{t('pmAuth.expired')}</Tag>}
              </>
            ),
          },
          { title: t('pmAuth.reason'), dataIndex: 'reason', render: (v: string, a) => <span data-testid={`pm-auth-reason-${a.id}`}>{v}</span> },
        ]}
      />
    </div>
  );
}
