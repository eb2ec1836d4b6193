/** Small shared pieces of the matrix pages: platform, authorization, review and release state tags. */
import { UserOutlined } from '@ant-design/icons';
import { Avatar, Space, Tag, Tooltip, Typography } from 'antd';
import type { Account, AccountStatus, Item, ItemState, ReviewState, TaskPlatform } from '@/api/matrix/types';
import { formatDate, formatTime } from '@/utils/format';
import { useMatrixT } from '../i18n';
import { isOverdue } from '../rules';
import { EvidenceButton } from './Evidence';

export const PLATFORM_COLORS: Record<TaskPlatform, string> = {
  dy: 'magenta',
  ks: 'orange',
  sph: 'green',
  xhs: 'red',
  bjh: 'blue',
  shop: 'gold',
  mixed: 'purple',
};

export function PlatformTag({ platform, testId }: { platform: TaskPlatform; testId?: string }) {
  const { t } = useMatrixT();
  return (
    <Tag color={PLATFORM_COLORS[platform] ?? 'default'} data-testid={testId}>
      {t(`platform.${platform}`, { defaultValue: platform })}
    </Tag>
  );
}

const STATUS_COLORS: Record<AccountStatus, string> = { active: 'green', expiring: 'orange', expired: 'red' };

/** active green / expiring orange / expired red, with the expiry date. */
export function AccountStatusTag({ account }: { account: Pick<Account, 'id' | 'status' | 'expires_at' | 'revoked_reason'> }) {
  const { t } = useMatrixT();
  return (
    <Space orientation="vertical" size={0}>
      {/* A platform refusal (failed refresh, revoked, session ended) is shown, never silent. */}
      <Tooltip title={account.revoked_reason || undefined}>
        <Tag color={STATUS_COLORS[account.status]} data-testid={`account-status-${account.id}`} data-status={account.status}>
          {t(`accountStatus.${account.status}`)}
        </Tag>
      </Tooltip>
      {account.status === 'expired' && account.revoked_reason ? (
        <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid={`account-reason-${account.id}`}>
          {account.revoked_reason}
        </Typography.Text>
      ) : null}
      {account.expires_at ? (
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('account.expiresOn', { date: formatDate(account.expires_at) })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** An account, or an item's account (whose nickname and avatar may be missing). */
export function AccountCell({ account }: { account: Pick<Account, 'id'> & { nickname?: string | null; avatar?: string | null; sandbox?: boolean } }) {
  const { t } = useMatrixT();
  return (
    <Space size={8}>
      <Avatar size="small" src={account.avatar || undefined} icon={<UserOutlined />} />
      <Typography.Text strong data-testid={`account-name-${account.id}`}>
        {account.nickname}
      </Typography.Text>
      {account.sandbox ? <Tag color="warning">{t('auth.sandboxTag')}</Tag> : null}
    </Space>
  );
}

const REVIEW_COLORS: Record<ReviewState, string> = { reviewing: 'processing', approved: 'success', rejected: 'error' };

/** Review state; under review it shows the SLA due time and an overdue marker. */
export function ReviewTag({
  row,
  testId,
}: {
  row: { id: number; review_state: ReviewState; review_due_at: number | null; review_reason?: string | null; overdue?: boolean };
  testId?: string;
}) {
  const { t } = useMatrixT();
  const overdue = isOverdue(row);
  const tag = (
    <Tag color={REVIEW_COLORS[row.review_state]} data-testid={testId ?? `review-${row.id}`} data-state={row.review_state}>
      {t(`review.${row.review_state}`)}
    </Tag>
  );
  return (
    <Space orientation="vertical" size={0}>
      <Space size={4}>
        {row.review_state === 'rejected' && row.review_reason ? <Tooltip title={t('review.reason', { reason: row.review_reason })}>{tag}</Tooltip> : tag}
        {overdue ? (
          <Tag color="red" data-testid={`overdue-${row.id}`}>
            {t('review.overdue')}
          </Tag>
        ) : null}
      </Space>
      {row.review_state === 'reviewing' && row.review_due_at ? (
        <Typography.Text type={overdue ? 'danger' : 'secondary'} style={{ fontSize: 12 }} data-testid={`review-due-${row.id}`}>
          {t('review.dueAt', { time: formatTime(row.review_due_at) })}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

const ITEM_COLORS: Record<ItemState, string> = {
  to_release: 'default',
  publishing: 'processing',
  published: 'cyan',
  released: 'success',
  failed: 'error',
};

/**
 * to_release / publishing / published / released / failed (the reason in a tooltip), and the page's
 * screenshot when a browser step failed.
 */
export function ItemStateTag({ item }: { item: Pick<Item, 'id' | 'state' | 'error' | 'evidence'> & Partial<Pick<Item, 'paused'>> }) {
  const { t } = useMatrixT();
  let tag = (
    <Tag color={ITEM_COLORS[item.state]} data-testid={`item-state-${item.id}`} data-state={item.state}>
      {t(`itemState.${item.state}`)}
    </Tag>
  );
  if (item.state === 'failed' && item.error)
    tag = (
      <Tooltip title={t('item.reason', { reason: item.error })}>
        <span data-testid={`item-error-${item.id}`} data-reason={item.error}>
          {tag}
        </span>
      </Tooltip>
    );
  // Waiting because its platform's page check failed: the reason is the server's, in the console's language.
  const paused = item.paused ? (
    <Tooltip title={item.paused}>
      <Tag color="orange" data-testid={`item-paused-${item.id}`} data-reason={item.paused}>
        {t('item.paused')}
      </Tag>
    </Tooltip>
  ) : null;
  if (!item.evidence && !paused) return tag;
  return (
    <Space size={0} wrap>
      {tag}
      {paused}
      {item.evidence ? <EvidenceButton itemId={item.id} evidence={item.evidence} /> : null}
    </Space>
  );
}
