/**
 * The user center's personal API tokens: name, scopes, expiry, last use; revoke one; create one
 * (ApiTokenDialog shows the token once). A token acts as this user's session within its scopes.
 */
import { KeyOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Card, Popconfirm, Space, Tag, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { authKeys, authUrls, revokeApiToken } from '@/api/auth';
import type { ApiToken } from '@/api/auth/types';
import { useWrite } from '@/api/mutations';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import ApiTokenDialog from './ApiTokenDialog';

export default function ApiTokens() {
  const { t } = useTranslation('auth');
  const [creating, setCreating] = useState(false);
  const revoking = useWrite(revokeApiToken, authKeys.all);

  const revoke = async (row: ApiToken) => {
    try {
      await revoking.mutateAsync(row.id);
      feedback.success(t('tokens.revoked'));
    } catch {
      /* toasted */
    }
  };

  const columns = useMemo<DataTableColumn<ApiToken>[]>(
    () => [
      {
        title: t('tokens.name'),
        dataIndex: 'name',
        render: (_, row) => (
          <Space orientation="vertical" size={0}>
            <Typography.Text strong>{row.name}</Typography.Text>
            <Typography.Text type="secondary" code style={{ fontSize: 12 }}>
              {row.hint}…
            </Typography.Text>
          </Space>
        ),
      },
      {
        title: t('tokens.scopes'),
        dataIndex: 'scopes',
        render: (_, row) => (
          <Space size={[0, 4]} wrap data-testid={`token-scopes-${row.id}`}>
            {row.scopes.map((s) => (
              <Tag key={s}>{t(`tokens.scope.${s}`)}</Tag>
            ))}
          </Space>
        ),
      },
      { title: t('tokens.expiresAt'), dataIndex: 'expires_at', width: 170, render: formatTime },
      {
        title: t('tokens.lastUsed'),
        dataIndex: 'last_used_at',
        width: 170,
        render: (v: number | null) => (v ? formatTime(v) : <Typography.Text type="secondary">{t('tokens.never')}</Typography.Text>),
      },
      {
        title: t('common:status'),
        key: 'state',
        width: 100,
        render: (_, row) =>
          row.revoked_at ? (
            <Tag color="red">{t('tokens.stateRevoked')}</Tag>
          ) : row.active ? (
            <Tag color="green">{t('tokens.stateActive')}</Tag>
          ) : (
            <Tag>{t('tokens.stateExpired')}</Tag>
          ),
      },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 100,
        render: (_, row) =>
          row.active ? (
            <Popconfirm
              title={t('tokens.revokeConfirm', { name: row.name })}
              description={t('tokens.revokeHelp')}
              okText={t('tokens.revoke')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `token-revoke-ok-${row.id}` } as never}
              onConfirm={() => revoke(row)}
            >
              <Button type="link" size="small" danger data-testid={`token-revoke-${row.id}`}>
                {t('tokens.revoke')}
              </Button>
            </Popconfirm>
          ) : null,
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );

  return (
    <Card
      title={
        <Space>
          <KeyOutlined />
          {t('tokens.title')}
        </Space>
      }
      extra={
        <Button type="primary" icon={<PlusOutlined />} onClick={() => setCreating(true)} data-testid="token-create">
          {t('tokens.create')}
        </Button>
      }
      data-testid="api-tokens"
    >
      <Typography.Paragraph type="secondary">{t('tokens.help')}</Typography.Paragraph>
      <DataTable<ApiToken> id="api-tokens" api={authUrls.apiTokens} queryKey={authKeys.all} columns={columns} pagination={false} />
      <ApiTokenDialog open={creating} onClose={() => setCreating(false)} />
    </Card>
  );
}
