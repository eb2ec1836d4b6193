import { Result } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '@/access/AccessContext';
import type { AppRouteMeta } from './types';

/** Sets the title and keeps Administrator-only and VIP routes closed to others. */
export function RouteGuard({ meta, children }: { meta: AppRouteMeta; children: ReactNode }) {
  const { t } = useTranslation();
  const access = useAccess();
  const title = t(meta.title);

  useEffect(() => {
    document.title = `${title} - clipmatrix`;
  }, [title]);

  if (meta.admin && !access.isAdmin) {
    return <Result status="403" title="403" subTitle={t('route.adminOnly')} data-testid="route-forbidden" />;
  }
  if (meta.vip && !access.isVip && !access.isAdmin) {
    return <Result status="warning" title={t('route.vipOnly')} data-testid="route-vip" />;
  }
  return <>{children}</>;
}
