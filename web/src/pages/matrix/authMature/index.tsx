/** /auth_mature — accounts whose authorization expires within 3 days or has expired (expire_user): renew or authorize again. */
import { LoginOutlined, SyncOutlined } from '@ant-design/icons';
import { Button, Space } from 'antd';
import { useMemo } from 'react';
import { matrixKeys, matrixUrls, renewAccount } from '@/api/matrix';
import { useWriteSettled } from '@/api/mutations';
import type { Account, Platform } from '@/api/matrix/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { formatDate } from '@/utils/format';
import { useMatrixT } from '../i18n';
import { allows } from '../rules';
import { AccountCell, AccountStatusTag, PlatformTag } from '../shared/tags';
import { useAuthorize } from '../shared/useAuthorize';

export default function AuthMaturePage() {
  const { t } = useMatrixT();
  const flow = useAuthorize({});
  // a refused renewal turns the account expired: the rows read again either way
  const renewal = useWriteSettled(renewAccount, matrixKeys.all);

  const columns = useMemo<DataTableColumn<Account>[]>(
    () => [
      { title: t('account.nickname'), dataIndex: 'nickname', render: (_, row) => <AccountCell account={row} /> },
      { title: t('account.platform'), dataIndex: 'platform', width: 110, render: (p: Platform, row) => <PlatformTag platform={p} testId={`account-platform-${row.id}`} /> },
      { title: t('account.status'), dataIndex: 'status', width: 150, render: (_, row) => <AccountStatusTag account={row} /> },
      { title: t('account.expiresAt'), dataIndex: 'expires_at', width: 130, sorter: true, render: formatDate },
      { title: t('account.group'), dataIndex: 'group_name', width: 130 },
      { title: t('account.remarks'), dataIndex: 'remarks', ellipsis: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 220,
        render: (_, row) => (
          <Space size={0}>
            {allows(row, 'renew') ? (
              <Button
                type="link"
                size="small"
                icon={<SyncOutlined />}
                onClick={async () => {
                  try {
                    const saved = await renewal.mutateAsync(row.id);
                    feedback.success(t('account.renewed', { name: saved.nickname, date: formatDate(saved.expires_at) }));
                  } catch {
                    /* toasted: authorize again */
                  }
                }}
                data-testid={`mature-renew-${row.id}`}
              >
                {t('account.renew')}
              </Button>
            ) : null}
            <Button
              type="link"
              size="small"
              icon={<LoginOutlined />}
              loading={flow.busy === row.platform}
              onClick={() => void flow.authorize(row.platform)}
              data-testid={`mature-reauth-${row.id}`}
            >
              {t('account.reauthorize')}
            </Button>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, flow.busy],
  );

  return (
    <div data-testid="auth-mature-page">
      <PageHeader title={t('common:menu.authMature')} subTitle={t('mature.subtitle')} />
      <DataTable<Account> id="mature" queryKey={matrixKeys.all} api={matrixUrls.expiring} method="post" columns={columns} scrollX={1000} />
      {flow.elements}
    </div>
  );
}
