/**
 * /nfc — NFC tap-to-post (docs/api-activities.md): the tags with their address (QR code, copy), the video
 * pool they hand out and what is left of it, the activity a post unlocks, whether they are in use and
 * their taps and posts; add, edit, titles, figures, delete.
 */
import { BarChartOutlined, CopyOutlined, DeleteOutlined, EditOutlined, FontSizeOutlined, PlusOutlined, QrcodeOutlined } from '@ant-design/icons';
import { Button, Input, Popconfirm, Popover, Space, Switch, Tag as AntTag, Tooltip, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useWrite } from '@/api/mutations';
import { deleteTag, editTag, nfcKeys, nfcUrls } from '@/api/nfc';
import type { Tag } from '@/api/nfc/types';
import DataTable, { type DataTableColumn } from '@/components/DataTable';
import PageHeader from '@/components/PageHeader';
import QrCodeImage from '@/components/QrCodeImage';
import { copyText } from '@/utils/copy';
import { feedback } from '@/utils/feedback';
import { formatTime } from '@/utils/format';
import { tagFilterFields } from './filters';
import { useNfcT } from './i18n';
import { poolLevel, withEnabled } from './rules';
import StatsDialog from './StatsDialog';
import TagForm from './TagForm';
import TitlesDialog from './TitlesDialog';

const LEVEL_COLORS = { empty: 'red', low: 'orange', ok: 'green' } as const;

function TagUrl({ tag }: { tag: Tag }) {
  const { t } = useNfcT();
  return (
    <Space size={4}>
      <Typography.Link href={tag.url} target="_blank" rel="noopener noreferrer" ellipsis style={{ maxWidth: 200 }} data-testid={`tag-url-${tag.id}`}>
        {tag.url}
      </Typography.Link>
      <Popover
        trigger="click"
        title={t('tag.qrTitle')}
        content={
          <Space orientation="vertical" align="center" style={{ maxWidth: 240 }}>
            <QrCodeImage value={tag.url} size={180} testId={`tag-qr-${tag.id}`} />
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {t('tag.qrHelp')}
            </Typography.Text>
          </Space>
        }
      >
        <Button type="text" size="small" icon={<QrcodeOutlined />} aria-label={t('tag.qrTitle')} data-testid={`tag-qr-button-${tag.id}`} />
      </Popover>
      <Tooltip title={t('tag.copy')}>
        <Button type="text" size="small" icon={<CopyOutlined />} aria-label={t('tag.copy')} onClick={() => void copyText(tag.url)} data-testid={`tag-copy-${tag.id}`} />
      </Tooltip>
    </Space>
  );
}

export default function NfcPage() {
  const { t } = useNfcT();
  const [name, setName] = useState('');
  const [editing, setEditing] = useState<Tag | null | undefined>(undefined);
  const [titlesOf, setTitlesOf] = useState<Tag | null>(null);
  const [statsOf, setStatsOf] = useState<Tag | null>(null);
  const switchWrite = useWrite(({ tag, enabled }: { tag: Tag; enabled: boolean }) => editTag(tag.id, withEnabled(tag, enabled)), nfcKeys.all);
  const switching = switchWrite.isPending ? (switchWrite.variables?.tag.id ?? null) : null;
  const remove = useWrite(deleteTag, nfcKeys.all);

  const toggle = async (tag: Tag, enabled: boolean) => {
    try {
      await switchWrite.mutateAsync({ tag, enabled });
      feedback.success(enabled ? t('tag.enabledOn', { name: tag.name }) : t('tag.enabledOff', { name: tag.name }));
    } catch (e) {
      feedback.error(e instanceof Error ? e.message : String(e));
    }
  };

  const columns = useMemo<DataTableColumn<Tag>[]>(
    () => [
      { title: t('tag.name'), dataIndex: 'name', sorter: true, width: 160, render: (v: string, row) => <span data-testid={`tag-name-${row.id}`}>{v}</span> },
      { title: t('tag.url'), dataIndex: 'url', width: 300, render: (_, row) => <TagUrl tag={row} /> },
      {
        title: t('tag.pool'),
        key: 'pool',
        width: 240,
        render: (_, row) => {
          const level = poolLevel(row.pool_left);
          return (
            <Space orientation="vertical" size={2}>
              <span>
                <Typography.Text type="secondary">{t(`poolKind.${row.pool_kind}`)}</Typography.Text> {row.pool_name}
              </span>
              <Tooltip title={level === 'ok' ? t('tag.leftTip') : t(level === 'empty' ? 'tag.leftEmpty' : 'tag.leftLow')}>
                <AntTag color={LEVEL_COLORS[level]} data-testid={`tag-left-${row.id}`} data-level={level}>
                  {t('tag.left', { left: row.pool_left, size: row.pool_size })}
                </AntTag>
              </Tooltip>
            </Space>
          );
        },
      },
      {
        title: t('tag.activity'),
        dataIndex: 'activity_name',
        width: 150,
        render: (v: string, row) => (row.activity_id ? v : <Typography.Text type="secondary">{t('form.noActivity')}</Typography.Text>),
      },
      {
        title: t('tag.enabled'),
        dataIndex: 'enabled',
        width: 90,
        render: (v: boolean, row) => (
          <Switch size="small" checked={v} loading={switching === row.id} onChange={(on) => void toggle(row, on)} data-testid={`tag-enabled-${row.id}`} />
        ),
      },
      {
        title: t('tag.tapsPosts'),
        key: 'figures',
        width: 110,
        render: (_, row) => (
          <Tooltip title={t('tag.tapsPostsTip')}>
            <span data-testid={`tag-figures-${row.id}`}>
              {row.taps} / {row.posts}
            </span>
          </Tooltip>
        ),
      },
      { title: t('common:createdAt'), dataIndex: 'created_at', width: 170, sorter: true, render: formatTime },
      {
        title: t('common:actions'),
        key: 'actions',
        fixed: 'right',
        width: 370,
        render: (_, row) => (
          <Space size={0}>
            <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(row)} data-testid={`tag-edit-${row.id}`}>
              {t('common:edit')}
            </Button>
            <Button type="link" size="small" icon={<FontSizeOutlined />} onClick={() => setTitlesOf(row)} data-testid={`tag-titles-${row.id}`}>
              {t('tag.titles', { count: row.titles ?? 0 })}
            </Button>
            <Button type="link" size="small" icon={<BarChartOutlined />} onClick={() => setStatsOf(row)} data-testid={`tag-stats-${row.id}`}>
              {t('tag.stats')}
            </Button>
            <Popconfirm
              title={t('tag.deleteConfirm', { name: row.name })}
              description={t('tag.deleteHelp')}
              okText={t('common:delete')}
              cancelText={t('common:cancel')}
              okButtonProps={{ danger: true, 'data-testid': `tag-delete-ok-${row.id}` } as never}
              onConfirm={async () => {
                try {
                  await remove.mutateAsync(row.id);
                  feedback.success(t('common:deletedSuccessfully'));
                } catch {
                  /* toasted */
                }
              }}
            >
              <Button type="link" size="small" danger icon={<DeleteOutlined />} data-testid={`tag-delete-${row.id}`}>
                {t('common:delete')}
              </Button>
            </Popconfirm>
          </Space>
        ),
      },
    ],
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [t, switching],
  );
  const filterFields = useMemo(() => tagFilterFields(t), [t]);
  const params = useMemo(() => (name ? { name } : undefined), [name]);

  return (
    <div data-testid="nfc-page">
      <PageHeader
        title={t('common:menu.nfc')}
        subTitle={t('page.subtitle')}
        extra={
          <Button type="primary" icon={<PlusOutlined />} onClick={() => setEditing(null)} data-testid="tag-add">
            {t('tag.add')}
          </Button>
        }
      />
      <DataTable<Tag>
        id="tags"
        queryKey={nfcKeys.all}
        api={nfcUrls.index}
        method="post"
        params={params}
        columns={columns}
        filterFields={filterFields}
        scrollX={1610}
        toolbar={<Input.Search allowClear placeholder={t('tag.search')} onSearch={(v) => setName(v.trim())} style={{ width: 240 }} data-testid="tags-search" />}
      />
      <TagForm
        open={editing !== undefined}
        tag={editing ?? null}
        onClose={() => setEditing(undefined)}
        onSaved={() => setEditing(undefined)}
      />
      <TitlesDialog tag={titlesOf} onClose={() => setTitlesOf(null)} />
      <StatsDialog tag={statsOf} onClose={() => setStatsOf(null)} />
    </div>
  );
}
