import { Result, Spin } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useAccess } from '@/access/AccessContext';
import ForbiddenPage from '@/pages/exception/forbidden';
import { inLanguage, menuPaths } from './menu';
import type { AppRouteMeta } from './types';

/**
 * Sets the title and keeps Administrator-only and VIP routes closed to others, and the routes of one
 * language's table (SPEC §2) closed in the other language. A staff member opens only
 * the routes of the menus granted to them (the server's menu tree); any other route is the 403 page,
 * not a page whose calls are all refused.
 */
export function RouteGuard({ meta, path, children }: { meta: AppRouteMeta; path?: string; children: ReactNode }) {
  const { t, i18n } = useTranslation();
  const access = useAccess();
  const title = t(meta.title);

  useEffect(() => {
    document.title = `${title} - clipmatrix`;
  }, [title]);

  if (meta.admin && !access.isAdmin) {
    return <ForbiddenPage subTitle={t('route.adminOnly')} />;
  }
  if (!inLanguage(meta, i18n.language)) {
    return <Result status="info" title={t('route.langOnly', { lang: t(`lang.${meta.lang}`) })} data-testid="route-lang" />;
  }
  if (path && meta.layout !== false && access.user?.kind === 'staff') {
    // A staff member always has the user center; an empty tree means it has not arrived yet.
    if (!access.menu.length) return <Spin size="large" style={{ display: 'block', padding: 64 }} />;
    if (!menuPaths(access.menu).includes(meta.menuPath ?? path)) return <ForbiddenPage />;
  }
  if (meta.vip && !access.isVip && !access.isAdmin) {
    return <Result status="warning" title={t('route.vipOnly')} data-testid="route-vip" />;
  }
  return <>{children}</>;
}
