/** The activities: window, state, who may draw, the coupon prizes' issued/stock and the figures; add, edit, delete, public page. */
import { CopyOutlined, DeleteOutlined, EditOutlined, PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Popover, Select, Space, Tag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { activitiesKeys, activityUrls, deleteActivity } from '@/api/activities';
import type { Activity, ActivityState } from '@/api/activities/types';
import { useWrite } from '@/api/mutations';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import QrCodeImage from '@/components/QrCodeImage';
import { copyText } from '@/utils/copy';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { ACTIVITY_STATES, activityFilterFields } from '../filters';
import { useActivitiesT } from '../i18n';
import { formatOdds } from '../rules';
import { ActivityStateTag } from '../shared/tags';
import ActivityForm from './ActivityForm';

/** The public page's address as a QR code, the link and a copy button. */
export function PublicPage({ activity }: { activity: Pick<Activity, 'id' | 'public_url'> }) {
  const { t } = useActivitiesT();
  return (
    <Space orientation="vertical" align="center" style={{ maxWidth: 260 }} data-testid={`activity-public-panel-${activity.id}`}>
      <QrCodeImage value={activity.public_url} size={180} testId={`activity-qr-${activity.id}`} />
      <Typography.Link href={activity.public_url} target="_blank" rel="noopener noreferrer" style={{ wordBreak: 'break-all' }} data-testid={`activity-link-${activity.id}`}>
        {activity.public_url}
      </Typography.Link>
      <Button size="small" icon={<CopyOutlined />} onClick={() => void copyText(activity.public_url)} data-testid={`activity-copy-${activity.id}`}>
        {t('activity.copyLink')}
      </Button>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('activity.publicHelp')}
      </Typography.Text>
    </Space>
  );
}

export default function ActivitiesTab() {
  const { t } = useActivitiesT();
  const remove = useWrite(deleteActivity, activitiesKeys.all);
  const [name, setName] = useState('');
  const [state, setState] = useState<ActivityState | undefined>(undefined);
  const [editing, setEditing] = useState<Activity | null | undefined>(undefined);

  const columns = useMemo<DataTableColumn<Activity>[]>(
    () => [
      {
        title: t('activity.name'),
        dataIndex: 'name',
        sorter: true,
        width: 180,
        render: (v: string, row) => (
          <Space size={6}>
            <span style={{ display: 'inline-block', width: 10, height: 10, borderRadius: 2, background: row.color }} aria-hidden />
            <span data-testid={`activity-name-${row.id}`}>{v}</span>
          </Space>
        ),
      },
      {
        title: t('activity.window'),
        key: 'window',
        width: 190,
        render: (_, row) => (
          <div style={{ whiteSpace: 'nowrap' }} data-testid={`activity-window-${row.id}`}>
            <div>{formatTime(row.starts_at)}</div>
            <Typography.Text type="secondary">~ {formatTime(row.ends_at)}</Typography.Text>
          </div>
        ),
      },
      { title: t('activity.state'), dataIndex: 'state', width: 100, render: (_, row) => <ActivityStateTag state={row.state} testId={`activity-state-${row.id}`} /> },
      { title: t('activity.who'), dataIndex: 'who', width: 150, render: (_, row) => t(`whoShort.${row.who}`) },
      {
        title: t('activity.prizes'),
        key: 'prizes',
        width: 220,
        render: (_, row) => (
          <Space orientation="vertical" size={2} data-testid={`activity-prizes-${row.id}`}>
            {row.prizes
              .filter((p) => p.kind === 'coupon')
              .map((p) => (
                <Tooltip key={p.id} title={t('prize.summaryTip', { odds: formatOdds(p.odds), perPerson: p.per_person, perDay: p.per_day, days: p.valid_days })}>
                  <span data-testid={`activity-prize-${row.id}-${p.id}`}>
                    {p.name}{' '}
                    <Tag color={p.issued >= p.stock ? 'red' : 'default'} style={{ marginInlineEnd: 0 }}>
                      {p.issued}/{p.stock}
                    </Tag>
                  </span>
                </Tooltip>
              ))}
          </Space>
        ),
      },
      {
        title: t('activity.figures'),
        key: 'figures',
        width: 150,
        render: (_, row) => (
          <Tooltip title={t('activity.figuresTip')}>
            <span data-testid={`activity-figures-${row.id}`}>
              {row.draws} / {row.wins} / {row.redeemed}
            </span>
          </Tooltip>
        ),
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 300,
        render: (_, row) => (
          <Space size={0}>
            <Popover trigger="click" title={t('activity.publicPage')} content={<PublicPage activity={row} />}>
              <Button type="link" size="small" icon={<QrcodeOutlined />} data-testid={`activity-public-${row.id}`}>
                {t('activity.publicPage')}
              </Button>
            </Popover>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`activity-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
            <Popconfirm
              title={t('activity.deleteConfirm', { name: row.name })}
              description={t('activity.deleteHelp')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `activity-delete-ok-${row.id}` } as never}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`activity-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t],
  );
  const filterFields = useMemo(() => activityFilterFields(t), [t]);
  const params = useMemo(() => {
    const p: Record<string, unknown> = {};
    if (name) p.name = name;
    if (state) p.state = state;
    return Object.keys(p).length ? p : undefined;
  }, [name, state]);

  return (
    <>
      <DataTable<Activity>
        id="activities"
        queryKey={activitiesKeys.all}
        api={activityUrls.index}
        method="post"
        params={params}
        columns={columns}
        filterFields={filterFields}
        scrollX={1450}
        toolbar={
          <Space wrap>
            <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="activity-add">
              {t('activity.add')}
            </Button>
            <Input.Search allowClear placeholder={t('activity.search')} onSearch={(v) => setName(v.trim())} style={{ width: 220 }} data-testid="activities-search" />
            <Select<ActivityState>
              allowClear
              placeholder={t('activity.allStates')}
              options={ACTIVITY_STATES.map((s) => ({ value: s, label: t(`state.${s}`) }))}
              value={state}
              onChange={(v) => setState(v ?? undefined)}
              style={{ width: 140 }}
              data-testid="activities-state"
            />
          </Space>
        }
      />
      <ActivityForm
        open={editing !== undefined}
        activity={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => setEditing(undefined)}
      />
    </>
  );
}
