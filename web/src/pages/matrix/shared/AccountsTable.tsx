/**
 * The authorized accounts (task.merchant_group_user/index) as /account_auth manages them (renew, edit,
 * region / POI, delete, batch delete) and as /user_library lists them (counts, filters by platform,
 * group and status).
 */
import { DeleteOutlined, EditOutlined, EnvironmentOutlined, SyncOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Popconfirm, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState, type Key, type ReactNode } from 'react';
import { deleteAccounts, fetchGroups, matrixKeys, matrixUrls, PLATFORMS, renewAccount, SESSION_PLATFORMS } from '@/api/matrix';
import { useMarkStale, useWrite, useWriteSettled } from '@/api/mutations';
import type { Account, AccountStatus, NotesImported, Platform } from '@/api/matrix/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import { feedback } from '@/utils/feedback';
import { formatDate, formatSize, formatTime } from '@/utils/format';
import { accountFilterFields } from '../filters';
import { useMatrixT } from '../i18n';
import { AccountAddressModal, AccountEditModal } from './AccountModals';
import { AccountCell, AccountStatusTag, PlatformTag } from './tags';

const count = (n: number | null | undefined) => (n ?? 0).toLocaleString('en-US');

export interface AccountsTableProps {
  mode: 'manage' | 'library';
  toolbarExtra?: ReactNode;
  onLoad?: (rows: Account[]) => void;
}

export default function AccountsTable({ mode, toolbarExtra, onLoad }: AccountsTableProps) {
  const { t } = useMatrixT();
  const [platform, setPlatform] = useState<Platform | undefined>();
  const [groupId, setGroupId] = useState<number | undefined>();
  const [status, setStatus] = useState<AccountStatus | undefined>();
  const [selected, setSelected] = useState<Key[]>([]);
  const [editing, setEditing] = useState<Account | null>(null);
  const [addressFor, setAddressFor] = useState<Account | null>(null);
  const [summary, setSummary] = useState<Record<string, number> | undefined>();
  const groups = useQuery({ queryKey: matrixKeys.groups, queryFn: fetchGroups });
  const groupRows = groups.data?.rows ?? [];
  // a refused renewal turns the account expired: the rows read again either way
  const renewal = useWriteSettled(renewAccount, matrixKeys.all);
  const removal = useWrite(deleteAccounts, matrixKeys.all);

  const renew = async (row: Account) => {
    try {
      const saved = await renewal.mutateAsync(row.id);
      feedback.success(t('account.renewed', { name: saved.nickname, date: formatDate(saved.expires_at) }));
    } catch {
      /* toasted: the account turns expired, authorize again */
    }
  };

  const remove = async (ids: number[]) => {
    try {
      await removal.mutateAsync(ids);
      feedback.success(t('common:deletedSuccessfully'));
      setSelected([]);
    } catch {
      /* toasted (422 while an item publishes) */
    }
  };

  const columns = useMemo<DataTableColumn<Account>[]>(() => {
    const account: DataTableColumn<Account> = {
      title: t('account.nickname'),
      dataIndex: 'nickname',
      sorter: true,
      render: (_, row) => <AccountCell account={row} />,
    };
    const platformCol: DataTableColumn<Account> = {
      title: t('account.platform'),
      dataIndex: 'platform',
      width: 110,
      render: (p: Platform, row) => <PlatformTag platform={p} testId={`account-platform-${row.id}`} />,
    };
    const statusCol: DataTableColumn<Account> = {
      title: t('account.status'),
      dataIndex: 'status',
      width: 150,
      sorter: true,
      render: (_, row) => <AccountStatusTag account={row} />,
    };
    const groupCol: DataTableColumn<Account> = {
      title: t('account.group'),
      dataIndex: 'group_name',
      width: 120,
      render: (name: string | null) => name || <Typography.Text type="secondary">{t('group.ungrouped')}</Typography.Text>,
    };
    const counts: DataTableColumn<Account>[] = (['videos', 'plays', 'comments', 'likes'] as const).map((k) => ({
      title: t(`account.${k}`),
      dataIndex: k,
      width: 100,
      sorter: true,
      render: (n: number, row: Account) => <span data-testid={`account-${k}-${row.id}`}>{count(n)}</span>,
    }));
    if (mode === 'library')
      return [
        account,
        platformCol,
        statusCol,
        groupCol,
        ...counts,
        { title: t('account.syncedAt'), dataIndex: 'synced_at', width: 170, render: formatTime },
        { title: t('account.remarks'), dataIndex: 'remarks', ellipsis: true, hide: true },
      ];
    return [
      account,
      platformCol,
      statusCol,
      groupCol,
      {
        title: t('account.region'),
        key: 'region',
        width: 140,
        render: (_, row) => [row.province, row.city].filter(Boolean).join(' / '),
      },
      {
        title: t('account.poi'),
        dataIndex: 'poi_name',
        width: 160,
        ellipsis: true,
        render: (name: string | null, row) => (name ? <span title={row.poi_address ?? undefined}>{name}</span> : ''),
      },
      { title: t('account.remarks'), dataIndex: 'remarks', ellipsis: true, width: 160 },
      {
        title: t('account.proxy'),
        dataIndex: 'proxy',
        width: 170,
        ellipsis: true,
        hide: true,
        render: (proxy: string, row) => (proxy ? <span data-testid={`account-proxy-${row.id}`}>{proxy}</span> : ''),
      },
      {
        title: t('account.lastCheck'),
        key: 'last_check',
        width: 170,
        render: (_, row) => (
          <Space orientation="vertical" size={0}>
            {row.last_check && (
              <Tooltip title={row.last_check.reason || undefined}>
                <Tag color={row.last_check.ok ? 'green' : 'red'} data-testid={`account-check-${row.id}`} data-ok={String(row.last_check.ok)}>
                  {row.last_check.ok ? t('account.checkOk') : t('account.checkFailed')} · {formatTime(row.last_check.at)}
                </Tag>
              </Tooltip>
            )}
            {SESSION_PLATFORMS.includes(row.platform) && (
              <Tooltip title={t('account.profileHelp')}>
                <Typography.Text type="secondary" data-testid={`account-profile-${row.id}`}>
                  {t('account.profile')}: {row.profile_bytes > 0 ? formatSize(row.profile_bytes) : t('account.profileNone')}
                </Typography.Text>
              </Tooltip>
            )}
          </Space>
        ),
      },
      {
        title: t('account.counts'),
        key: 'counts',
        width: 190,
        render: (_, row) => (
          <Space size={[0, 4]} wrap data-testid={`account-counts-${row.id}`}>
            <Tag>{t('account.videosN', { n: count(row.videos) })}</Tag>
            <Tag>{t('account.playsN', { n: count(row.plays) })}</Tag>
            <Tag>{t('account.commentsN', { n: count(row.comments) })}</Tag>
            <Tag>{t('account.likesN', { n: count(row.likes) })}</Tag>
          </Space>
        ),
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime, hide: true },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 250,
        render: (_, row) => (
          <Space size={0} wrap>
            <Button type="link" size="small" icon={<SyncOutlined />} onClick={() => void renew(row)} data-testid={`account-renew-${row.id}`}>
              {t('account.renew')}
            </Button>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`account-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
            <Button type="link" size="small" icon={<EnvironmentOutlined />} onClick={() => setAddressFor(row)} data-testid={`account-address-${row.id}`}>
              {t('account.regionPoi')}
            </Button>
            <Popconfirm
              title={t('account.deleteConfirm', { name: row.nickname })}
              description={t('account.deleteHelp')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `account-delete-ok-${row.id}` } as never}
              onConfirm={() => remove([row.id])}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`account-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ];
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [t, mode]);

  const filterFields = useMemo(() => accountFilterFields(t), [t]);
  const params = useMemo(() => {
    const p: Record<string, unknown> = {};
    if (platform) p.platform = platform;
    if (groupId !== undefined) p.group_id = groupId;
    if (status) p.status = status;
    return Object.keys(p).length ? p : undefined;
  }, [platform, groupId, status]);

  const id = mode === 'library' ? 'user-library' : 'accounts';
  const markStale = useMarkStale(matrixKeys.all);
  return (
    <>
      <DataTable<Account>
        id={id}
        queryKey={matrixKeys.all}
        api={matrixUrls.accounts}
        exportApi={matrixUrls.accountsExport}
        importer={{
          api: matrixUrls.accountsImport,
          templateApi: matrixUrls.accountsImportTemplate,
          name: 'accounts-import',
          hint: t('account.importHint'),
          onDone: (r: NotesImported) => {
            feedback.success(r.groups_created.length ? t('account.importedGroups', { count: r.updated, groups: r.groups_created.join('、') }) : t('account.imported', { count: r.updated }));
            markStale();
          },
        }}
        method="post"
        params={params}
        columns={columns}
        filterFields={filterFields}
        selectable={mode === 'manage'}
        onSelectionChange={(keys) => setSelected(keys)}
        onLoad={(list) => {
          setSummary(list.summary);
          onLoad?.(list.rows);
        }}
        scrollX={mode === 'library' ? 1200 : 1500}
        toolbar={
          <Space wrap>
            <Select<Platform>
              allowClear
              placeholder={t('account.allPlatforms')}
              value={platform}
              onChange={setPlatform}
              options={PLATFORMS.map((p) => ({ value: p, label: t(`platform.${p}`) }))}
              style={{ width: 140 }}
              data-testid={`${id}-platform`}
            />
            <Select<number>
              allowClear
              placeholder={t('account.allGroups')}
              value={groupId}
              onChange={setGroupId}
              options={[{ value: 0, label: t('group.ungrouped') }, ...groupRows.map((g) => ({ value: g.id, label: g.name }))]}
              style={{ width: 150 }}
              data-testid={`${id}-group`}
            />
            <Select<AccountStatus>
              allowClear
              placeholder={t('account.allStatuses')}
              value={status}
              onChange={setStatus}
              options={(['active', 'expiring', 'expired'] as const).map((s) => ({ value: s, label: t(`accountStatus.${s}`) }))}
              style={{ width: 130 }}
              data-testid={`${id}-status`}
            />
            {mode === 'manage' ? (
              <Popconfirm
                title={t('account.deleteSelectedConfirm', { count: selected.length })}
                description={t('account.deleteHelp')}
                okText={t('common:delete')}
                cancelText={t('common:cancel')}
                okButtonProps={{ danger: true, 'data-testid': 'accounts-delete-ok' } as never}
                onConfirm={() => remove(selected.map(Number))}
                disabled={!selected.length}
              >
                <Button danger icon={<DeleteOutlined />} disabled={!selected.length} data-testid="accounts-delete">
                  {t('account.deleteSelected', { count: selected.length })}
                </Button>
              </Popconfirm>
            ) : null}
            {summary ? (
              <Space size={4} data-testid={`${id}-summary`}>
                <Tag color="green">{t('accountStatus.active')} {summary.active ?? 0}</Tag>
                <Tag color="orange">{t('accountStatus.expiring')} {summary.expiring ?? 0}</Tag>
                <Tag color="red">{t('accountStatus.expired')} {summary.expired ?? 0}</Tag>
              </Space>
            ) : null}
            {toolbarExtra}
          </Space>
        }
      />
      <AccountEditModal
        account={editing}
        groups={groupRows}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          feedback.success(t('common:savedSuccessfully'));
        }}
      />
      <AccountAddressModal
        account={addressFor}
        onClose={() => setAddressFor(null)}
        onSaved={() => {
          setAddressFor(null);
          feedback.success(t('common:savedSuccessfully'));
        }}
      />
    </>
  );
}
