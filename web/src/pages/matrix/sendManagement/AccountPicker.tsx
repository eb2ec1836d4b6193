/** Step 1 of a release task: accounts picked by group (getAccountGroup); only active / expiring ones of the task's platform. */
import { useQuery } from '@tanstack/react-query';
import { Avatar, Button, Checkbox, Empty, Space, Spin, Tag, Tooltip, Typography } from 'antd';
import { UserOutlined } from '@ant-design/icons';
import { fetchAccountGroups } from '@/api/matrix';
import type { Account, TaskPlatform } from '@/api/matrix/types';
import { formatDate } from '@/utils/format';
import { useMatrixT } from '../i18n';
import { PlatformTag } from '../shared/tags';

export const selectable = (a: Account, platform: TaskPlatform | undefined) =>
  a.status !== 'expired' && (platform === 'mixed' || !platform || a.platform === platform);

export interface AccountPickerProps {
  platform: TaskPlatform | undefined;
  value?: number[];
  onChange?: (ids: number[]) => void;
}

export default function AccountPicker({ platform, value = [], onChange }: AccountPickerProps) {
  const { t } = useMatrixT();
  const groups = useQuery({ queryKey: ['matrix', 'accountGroups'], queryFn: fetchAccountGroups, staleTime: 0 });
  const chosen = new Set(value);
  const set = (ids: Iterable<number>) => onChange?.([...new Set(ids)]);
  const rows = (groups.data?.rows ?? [])
    .map((g) => ({ ...g, accounts: (g.accounts ?? []).filter((a) => platform === 'mixed' || !platform || a.platform === platform) }))
    .filter((g) => g.accounts.length > 0);
  const usable = rows.flatMap((g) => g.accounts.filter((a) => selectable(a, platform)));

  if (groups.isLoading) return <Spin data-testid="account-picker-loading" />;
  if (!rows.length) return <Empty description={t('form.noAccounts')} data-testid="account-picker-empty" />;

  return (
    <div data-testid="account-picker">
      <Space style={{ marginBottom: 8 }}>
        <Button size="small" onClick={() => set(usable.map((a) => a.id))} data-testid="accounts-all">
          {t('form.selectAllUsable', { count: usable.length })}
        </Button>
        <Button size="small" onClick={() => set([])} disabled={!value.length} data-testid="accounts-none">
          {t('form.clearSelection')}
        </Button>
        <Typography.Text type="secondary" data-testid="accounts-chosen">
          {t('form.accountsChosen', { count: value.length })}
        </Typography.Text>
      </Space>
      <div className="cm-account-groups">
        {rows.map((g) => {
          const ok = g.accounts.filter((a) => selectable(a, platform));
          const on = ok.filter((a) => chosen.has(a.id)).length;
          return (
            <div key={g.id} className="cm-account-group" data-testid={`account-group-${g.id}`}>
              <Checkbox
                checked={ok.length > 0 && on === ok.length}
                indeterminate={on > 0 && on < ok.length}
                disabled={!ok.length}
                onChange={(e) => {
                  const next = new Set(value);
                  for (const a of ok) {
                    if (e.target.checked) next.add(a.id);
                    else next.delete(a.id);
                  }
                  set(next);
                }}
                data-testid={`group-check-${g.id}`}
              >
                <Typography.Text strong>{g.id === 0 ? t('group.ungrouped') : g.name}</Typography.Text>{' '}
                <Typography.Text type="secondary">
                  ({on}/{ok.length})
                </Typography.Text>
              </Checkbox>
              <div style={{ display: 'flex', flexWrap: 'wrap', gap: '6px 16px', marginTop: 6, paddingLeft: 24 }}>
                {g.accounts.map((a) => {
                  const can = selectable(a, platform);
                  const box = (
                    <Checkbox
                      key={a.id}
                      checked={chosen.has(a.id)}
                      disabled={!can}
                      onChange={(e) => {
                        const next = new Set(value);
                        if (e.target.checked) next.add(a.id);
                        else next.delete(a.id);
                        set(next);
                      }}
                      data-testid={`account-check-${a.id}`}
                    >
                      <Space size={4}>
                        <Avatar size={20} src={a.avatar || undefined} icon={<UserOutlined />} />
                        <span>{a.nickname}</span>
                        {platform === 'mixed' ? <PlatformTag platform={a.platform} /> : null}
                        {a.status === 'expiring' ? <Tag color="orange">{t('accountStatus.expiring')}</Tag> : null}
                        {a.status === 'expired' ? <Tag color="red">{t('accountStatus.expired')}</Tag> : null}
                      </Space>
                    </Checkbox>
                  );
                  return can ? (
                    box
                  ) : (
                    <Tooltip key={a.id} title={t('form.accountExpired', { date: formatDate(a.expires_at) })}>
                      {box}
                    </Tooltip>
                  );
                })}
              </div>
            </div>
          );
        })}
      </div>
    </div>
  );
}
