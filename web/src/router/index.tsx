import { Spin } from 'antd';
import { Suspense, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, createBrowserRouter, useLocation, type RouteObject } from 'react-router';
import { useAccess } from '@/access/AccessContext';
import { getHomeType, isLoggedIn } from '@/store/session';
import { resolveLayout, useSettings } from '@/store/settings';
import { setNavigate } from '@/utils/navigation';
import { lazyPage } from './lazy';
import { homePath } from './menu';
import RouteError from './RouteError';
import { RouteGuard } from './RouteGuard';
import { layoutRoutes, publicRoutes } from './routes';
import type { AppRoute } from './types';

const BasicLayout = lazyPage(() => import('@/layouts/BasicLayout'));
const NotFound = lazyPage(() => import('@/pages/exception/notFound'));

export function PageLoading() {
  return (
    <div style={{ padding: 64, textAlign: 'center' }} data-testid="page-loading">
      <Spin size="large" />
    </div>
  );
}

function RequireAuth({ children }: { children: ReactNode }) {
  const location = useLocation();
  if (!isLoggedIn()) {
    const redirect = `${location.pathname}${location.search}`;
    const query = redirect && redirect !== '/' ? `?redirect=${encodeURIComponent(redirect)}` : '';
    return <Navigate to={`/login${query}`} replace />;
  }
  return <>{children}</>;
}

function HomeRedirect() {
  const access = useAccess();
  const { i18n } = useTranslation();
  const { settings } = useSettings();
  // SPEC §2: the 'header' layout (stored home type 1) starts at /home, the 'second' one at the dashboard
  if (!access.isAdmin && resolveLayout(settings.layout, getHomeType() ?? access.user?.home_type ?? null) === 'header') {
    return <Navigate to="/home" replace />;
  }
  return <Navigate to={homePath(access.menu, { isAdmin: access.isAdmin, lang: i18n.language })} replace />;
}

function page(route: AppRoute): ReactNode {
  const Page = lazyPage(route.load);
  return (
    <RouteGuard meta={route.meta} path={route.path}>
      <Suspense fallback={<PageLoading />}>
        <Page />
      </Suspense>
    </RouteGuard>
  );
}

export const routes: RouteObject[] = [
  ...publicRoutes.map((r) => ({ path: r.path, element: page(r), errorElement: <RouteError /> })),
  {
    path: '/',
    element: (
      <RequireAuth>
        <Suspense fallback={<PageLoading />}>
          <BasicLayout />
        </Suspense>
      </RequireAuth>
    ),
    errorElement: <RouteError />,
    children: [
      { index: true, element: <HomeRedirect /> },
      ...layoutRoutes.map((r) => ({ path: r.path.slice(1), element: page(r), errorElement: <RouteError /> })),
      {
        path: '*',
        element: (
          <Suspense fallback={<PageLoading />}>
            <NotFound />
          </Suspense>
        ),
      },
    ],
  },
];

export function createRouter() {
  const router = createBrowserRouter(routes);
  setNavigate((to, options) => void router.navigate(to, options));
  return router;
}
