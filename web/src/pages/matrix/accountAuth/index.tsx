/**
 * /account_auth — authorize accounts on the six platforms (docs/api-matrix.md "Accounts"): a card per
 * platform, then the authorized accounts with renew, edit, region / POI and delete. The DY / KS consent
 * page comes back here with ?authorized=<id> or ?auth_error=<message>.
 */
import { useQueryClient, useQuery } from '@tanstack/react-query';
import { Select, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { fetchGroups, matrixKeys } from '@/api/matrix';
import PageHeader from '@/components/PageHeader';
import { feedback } from '@/utils/feedback';
import { useMatrixT } from '../i18n';
import AccountsTable from '../shared/AccountsTable';
import { useAuthorize } from '../shared/useAuthorize';
import PlatformCards from './PlatformCards';
import '../matrix.css';

export default function AccountAuthPage() {
  const { t } = useMatrixT();
  const client = useQueryClient();
  const [search, setSearch] = useSearchParams();
  const [groupId, setGroupId] = useState<number | undefined>();
  const groups = useQuery({ queryKey: matrixKeys.groups, queryFn: fetchGroups });
  const flow = useAuthorize({ groupId });

  // back from a platform's consent page
  const authorized = search.get('authorized');
  const authError = search.get('auth_error');
  useEffect(() => {
    if (authorized === null && authError === null) return;
    if (authError !== null) feedback.error(t('auth.failed', { message: authError || t('auth.unknownError') }));
    else feedback.success(t('auth.success'));
    const next = new URLSearchParams(search);
    next.delete('authorized');
    next.delete('auth_error');
    setSearch(next, { replace: true });
    // authorized on the platform's page: the accounts and the platform cards read again. Reset, not
    // invalidate: a read this page already sent is not reused (invalidating joins a first read in flight)
    if (authorized !== null) void client.resetQueries({ queryKey: matrixKeys.all });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [authorized, authError]);

  return (
    <div data-testid="account-auth-page">
      <PageHeader
        title={t('common:menu.accountAuth')}
        subTitle={t('auth.subtitle')}
        extra={
          <Space>
            <Typography.Text type="secondary">{t('auth.intoGroup')}</Typography.Text>
            <Select<number>
              allowClear
              placeholder={t('group.ungrouped')}
              value={groupId}
              onChange={setGroupId}
              options={(groups.data?.rows ?? []).map((g) => ({ value: g.id, label: g.name }))}
              style={{ width: 180 }}
              data-testid="auth-group"
            />
          </Space>
        }
      />
      <PlatformCards onAuthorize={(p) => void flow.authorize(p)} busy={flow.busy} />
      <AccountsTable mode="manage" />
      {flow.elements}
    </div>
  );
}
