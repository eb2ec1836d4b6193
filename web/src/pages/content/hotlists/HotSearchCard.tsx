/**
 * Today's hot searches from the hot-list cache, as a small ranked card: on /home and on /dashboard
 * (SPEC §2 "hot rankings"). Shown only to users whose menus grant the hot searches page; the list
 * links to /keywords for the whole board.
 */
import { useQuery } from '@tanstack/react-query';
import { Card, List, Space, Tag, Typography } from 'antd';
import { Link } from 'react-router';
import { useAccess } from '@/access/AccessContext';
import { fetchHotBoard } from '@/api/content';
import SimulatedTag from '@/components/SimulatedTag';
import { useContentT } from '../i18n';

export default function HotSearchCard({ limit = 10, testId = 'home-hot' }: { limit?: number; testId?: string }) {
  const { t } = useContentT();
  const canHot = useAccess().can('content/hot_list/keywords_index');
  const hot = useQuery({ queryKey: ['hot', 'keywords'], queryFn: () => fetchHotBoard('keywords'), enabled: canHot });
  if (!canHot) return null;
  return (
    <Card
      title={
        <Space size={4}>
          {t('home.hot')}
          {hot.data?.simulated ? <SimulatedTag testId={`${testId}-simulated`} /> : null}
        </Space>
      }
      size="small"
      extra={<Link to="/keywords">{t('home.more')}</Link>}
      data-testid={testId}
      style={{ height: '100%' }}
    >
      <List
        size="small"
        loading={hot.isPending}
        dataSource={(hot.data?.rows ?? []).slice(0, limit)}
        locale={{ emptyText: t('hot.pending') }}
        renderItem={(w) => (
          <List.Item>
            <Space>
              <Typography.Text type={w.rank <= 3 ? 'danger' : 'secondary'}>{w.rank}</Typography.Text>
              {w.title}
              {w.label ? <Tag color="red">{w.label}</Tag> : null}
            </Space>
          </List.Item>
        )}
      />
    </Card>
  );
}
