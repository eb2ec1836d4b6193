/**
 * /Events — lottery activities (docs/api-activities.md): the activities with their prizes and public
 * pages, the draw log and the coupon desk, one tab each (`?tab=draws|coupons` opens the others).
 */
import { Space, Tabs } from 'antd';
import { useSearchParams } from 'react-router';
import PageHeader from '@/components/PageHeader';
import TimeZoneNote from '@/components/TimeZoneNote';
import { useActivitiesT } from '../i18n';
import ActivitiesTab from './ActivitiesTab';
import CouponsTab from './CouponsTab';
import DrawsTab from './DrawsTab';

const TABS = ['activities', 'draws', 'coupons'] as const;
type TabKey = (typeof TABS)[number];

export default function EventsPage() {
  const { t } = useActivitiesT();
  const [search, setSearch] = useSearchParams();
  const asked = search.get('tab') as TabKey | null;
  const tab: TabKey = asked && (TABS as readonly string[]).includes(asked) ? asked : 'activities';

  const choose = (key: string) => {
    const next = new URLSearchParams(search);
    if (key === 'activities') next.delete('tab');
    else next.set('tab', key);
    setSearch(next, { replace: true });
  };

  return (
    <div data-testid="events-page">
      <PageHeader
        title={t('common:menu.events')}
        subTitle={
          <Space size={12} wrap>
            {t('page.subtitle')}
            <TimeZoneNote />
          </Space>
        }
      />
      <Tabs
        activeKey={tab}
        onChange={choose}
        destroyOnHidden
        items={[
          { key: 'activities', label: <span data-testid="tab-activities">{t('tabs.activities')}</span>, children: <ActivitiesTab /> },
          { key: 'draws', label: <span data-testid="tab-draws">{t('tabs.draws')}</span>, children: <DrawsTab /> },
          { key: 'coupons', label: <span data-testid="tab-coupons">{t('tabs.coupons')}</span>, children: <CouponsTab /> },
        ]}
      />
    </div>
  );
}
