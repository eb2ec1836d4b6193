import { MenuFoldOutlined, MenuUnfoldOutlined, SettingOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Alert, Button, Layout, Menu, Spin, theme, type MenuProps } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { AccessProvider, type AccessState } from '@/access/AccessContext';
import { hasPermission, isAdministrator } from '@/access/permission';
import { fetchInitAdmin, fetchPlatformInit, refreshToken } from '@/api/auth';
import LanguageSwitch from '@/components/LanguageSwitch';
import Watermark from '@/components/Watermark';
import { APP_VERSION, TOKEN_REFRESH_AFTER_MS } from '@/config';
import { renderIcon } from '@/router/icons';
import { buildMenu, menuTitle, openKeysFor, type MenuEntry } from '@/router/menu';
import {
  getHomeType,
  getStoredMenu,
  getStoredPermissions,
  getStoredRoles,
  getStoredUser,
  isLoggedIn,
  onSessionChange,
  saveAdminInfo,
  saveLogin,
  tokenAgeMs,
} from '@/store/session';
import { resolveLayout, useSettings } from '@/store/settings';
import { loginPath } from '@/utils/navigation';
import SettingsDrawer from './components/SettingsDrawer';
import { siderWidth } from './siderWidth';
import UserDropdown from './components/UserDropdown';

const { Header, Sider, Content, Footer } = Layout;

/** New leads given to the signed-in user, shown as they arrive (loaded only for users who take leads). */
const LeadNotifier = lazy(() => import('@/pages/engagement/notify/LeadNotifier'));

export function menuTestId(path: string): string {
  return `menu-${path.replace(/^\//, '').replace(/\//g, '-')}`;
}

function toItems(entries: MenuEntry[]): MenuProps['items'] {
  return entries.map((e) => ({
    key: e.key,
    icon: renderIcon(e.icon),
    // the title attribute shows a label in full should one still not fit (the sider stops at 300 px)
    label: e.path ? (
      <span data-testid={menuTestId(e.path)} title={menuTitle(e.title, e.path)}>
        {menuTitle(e.title, e.path)}
      </span>
    ) : (
      menuTitle(e.title)
    ),
    children: e.children ? toItems(e.children) : undefined,
  }));
}

export default function BasicLayout() {
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const location = useLocation();
  const { settings, update } = useSettings();
  const { token } = theme.useToken();
  const [drawer, setDrawer] = useState(false);

  // read again every few minutes: it tells the operator of platforms a failed page check paused
  const init = useQuery({ queryKey: ['initAdmin'], queryFn: fetchInitAdmin, staleTime: 60_000, refetchInterval: 5 * 60_000 });
  // the server runs the platform sandbox where others can reach it: say so on every page
  const platform = useQuery({ queryKey: ['platformInit'], queryFn: fetchPlatformInit, staleTime: Infinity });
  useEffect(() => {
    if (init.data) saveAdminInfo(init.data);
  }, [init.data]);

  // a cleared session (logout elsewhere, revoked, expired) goes back to the sign-in page
  useEffect(
    () =>
      onSessionChange(() => {
        if (!isLoggedIn()) navigate(loginPath(), { replace: true });
      }),
    [navigate],
  );

  // expiry check and sliding token refresh, once a minute
  useEffect(() => {
    const tick = async () => {
      if (!isLoggedIn()) {
        navigate(loginPath(), { replace: true });
        return;
      }
      if (tokenAgeMs() > TOKEN_REFRESH_AFTER_MS) {
        try {
          saveLogin(await refreshToken());
        } catch {
          /* keep the current token until it expires */
        }
      }
    };
    void tick();
    const id = setInterval(tick, 60_000);
    return () => clearInterval(id);
  }, [navigate]);

  const access: AccessState = useMemo(
    () => ({
      user: init.data?.user ?? getStoredUser(),
      menu: init.data?.menu ?? getStoredMenu(),
      permissions: init.data?.permissions ?? getStoredPermissions(),
      roles: init.data?.role ?? getStoredRoles(),
    }),
    [init.data],
  );
  const isAdmin = isAdministrator(access.roles.length ? access.roles : access.user?.role);
  const takesLeads = !isAdmin && hasPermission(access.permissions, 'msg/merchant_clue/index');
  const lang = i18n.language;
  const entries = useMemo(() => buildMenu(access.menu, { isAdmin, lang }), [access.menu, isAdmin, lang]);
  // t changes with the language, so the labels follow it
  const items = useMemo(() => toItems(entries), [entries, t]); // eslint-disable-line react-hooks/exhaustive-deps
  const width = useMemo(() => siderWidth(entries), [entries, t]); // eslint-disable-line react-hooks/exhaustive-deps
  const mode = resolveLayout(settings.layout, getHomeType() ?? access.user?.home_type ?? null);
  const [openKeys, setOpenKeys] = useState<string[]>(() => openKeysFor(entries, location.pathname));
  useEffect(() => {
    setOpenKeys((keys) => Array.from(new Set([...keys, ...openKeysFor(entries, location.pathname)])));
  }, [entries, location.pathname]);

  if (init.isPending && !getStoredMenu().length) {
    return (
      <div style={{ height: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        <Spin size="large" />
      </div>
    );
  }

  const onMenuClick: MenuProps['onClick'] = ({ key }) => {
    if (key.startsWith('/')) navigate(key);
  };
  const userName = access.user?.nickname || access.user?.username || '';
  const proxyUser = access.user?.proxy_info?.user_name;

  const logo = (
    <div className="cm-logo" data-testid="app-logo">
      <img src="/favicon.svg" alt="" width={24} height={24} />
      {!settings.collapsed || mode === 'header' ? <span>clipmatrix</span> : null}
    </div>
  );

  const right = (
    <div className="cm-header-right">
      <LanguageSwitch />
      <Button type="text" icon={<SettingOutlined />} onClick={() => setDrawer(true)} data-testid="settings-button" aria-label={t('layout.settings')} />
      <UserDropdown />
    </div>
  );

  const body = (
    <Layout>
      {mode === 'second' ? (
        <Header className="cm-header" style={{ background: token.colorBgContainer }}>
          <Button
            type="text"
            icon={settings.collapsed ? <MenuUnfoldOutlined /> : <MenuFoldOutlined />}
            onClick={() => update({ collapsed: !settings.collapsed })}
            aria-label={t('layout.collapse')}
          />
          {right}
        </Header>
      ) : null}
      {platform.data?.demo ? <Alert type="info" banner showIcon title={t('layout.demoBanner')} data-testid="demo-banner" /> : null}
      {isAdmin && init.data?.paused_platforms?.length ? (
        <Alert
          type="error"
          banner
          showIcon
          data-testid="paused-banner"
          title={t('layout.pausedBanner', {
            platforms: init.data.paused_platforms.map((p) => p.name).join(t('layout.listJoin')),
            reason: init.data.paused_platforms[0].reason,
          })}
          action={
            <Button size="small" onClick={() => navigate('/system/app')} data-testid="paused-banner-go">
              {t('layout.pausedAction')}
            </Button>
          }
        />
      ) : null}
      {proxyUser ? (
        <Alert type="warning" banner showIcon title={t('layout.proxyBanner', { operator: proxyUser })} data-testid="proxy-banner" />
      ) : null}
      <Content className="cm-content">
        <Watermark text={userName} enabled={settings.watermark}>
          {/* keyed by the path: a page shown under two menu paths starts afresh on each, as a page loaded anew */}
          <div
            key={location.pathname}
            data-testid="page-content"
            style={{ background: token.colorBgContainer, borderRadius: token.borderRadiusLG, padding: 24, minHeight: 360 }}
          >
            <Outlet />
          </div>
        </Watermark>
      </Content>
      <Footer className="cm-footer">
        {t('appName')} v{APP_VERSION} ·{' '}
        <a href="/api/docs" target="_blank" rel="noreferrer">
          {t('footer.api')}
        </a>
      </Footer>
    </Layout>
  );

  return (
    <AccessProvider value={access}>
      {takesLeads && (
        <Suspense fallback={null}>
          <LeadNotifier />
        </Suspense>
      )}
      <Layout style={{ minHeight: '100vh' }} data-testid={`layout-${mode}`}>
        {mode === 'header' ? (
          <>
            <Header className="cm-header" style={{ background: token.colorBgContainer }}>
              {logo}
              <Menu
                mode="horizontal"
                items={items}
                selectedKeys={[location.pathname]}
                onClick={onMenuClick}
                style={{ flex: 1, minWidth: 0, borderBottom: 'none' }}
                data-testid="top-menu"
              />
              {right}
            </Header>
            {body}
          </>
        ) : (
          <>
            <Sider
              collapsible
              trigger={null}
              collapsed={settings.collapsed}
              theme={settings.dark ? 'dark' : 'light'}
              width={width}
              data-testid="side-sider"
              style={{ borderRight: `1px solid ${token.colorBorderSecondary}` }}
            >
              {logo}
              <Menu
                mode="inline"
                items={items}
                selectedKeys={[location.pathname]}
                openKeys={settings.collapsed ? undefined : openKeys}
                onOpenChange={setOpenKeys}
                onClick={onMenuClick}
                data-testid="side-menu"
              />
            </Sider>
            {body}
          </>
        )}
      </Layout>
      <SettingsDrawer open={drawer} onClose={() => setDrawer(false)} />
    </AccessProvider>
  );
}
