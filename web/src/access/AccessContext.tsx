import { createContext, useContext, useMemo, type ReactNode } from 'react';
import type { MenuNode, UserRecord } from '@/api/auth/types';
import { getStoredMenu, getStoredPermissions, getStoredRoles, getStoredUser } from '@/store/session';
import { hasPermission, hasRole, isAdministrator, type PermissionMode } from './permission';

export interface AccessState {
  user: UserRecord | null;
  menu: MenuNode[];
  permissions: string[];
  roles: string[];
}

export interface RouteAccessMeta {
  permission?: string | string[];
  permissionMode?: PermissionMode;
  admin?: boolean;
  vip?: boolean;
}

const AccessContext = createContext<AccessState | null>(null);

export function AccessProvider({ value, children }: { value: AccessState; children: ReactNode }) {
  return <AccessContext.Provider value={value}>{children}</AccessContext.Provider>;
}

function storedState(): AccessState {
  return { user: getStoredUser(), menu: getStoredMenu(), permissions: getStoredPermissions(), roles: getStoredRoles() };
}

export function useAccess() {
  const ctx = useContext(AccessContext);
  return useMemo(() => {
    const state = ctx ?? storedState();
    const roles = state.roles.length ? state.roles : (state.user?.role ?? []);
    const permissions = state.permissions.length ? state.permissions : (state.user?.permissions ?? []);
    const isAdmin = isAdministrator(roles);
    const isVip = Boolean(state.user?.vip) || roles.includes('vip');
    return {
      ...state,
      roles,
      permissions,
      isAdmin,
      isVip,
      can: (needed: string | string[], mode: PermissionMode = 'one') => hasPermission(permissions, needed, mode),
      hasRole: (role: string | string[]) => hasRole(roles, role),
      /** Whether a route may be opened: admin routes need Administrator; VIP is checked by the page guard. */
      canOpen: (meta: RouteAccessMeta) => !meta.admin || isAdmin,
    };
  }, [ctx]);
}

/** Renders children only when the user holds the permission(s) or one of the roles. */
export function Access({
  permission,
  mode = 'one',
  role,
  fallback = null,
  children,
}: {
  permission?: string | string[];
  mode?: PermissionMode;
  role?: string | string[];
  fallback?: ReactNode;
  children: ReactNode;
}) {
  const access = useAccess();
  const allowed = (permission !== undefined && access.can(permission, mode)) || (role !== undefined && access.hasRole(role));
  return <>{allowed || (permission === undefined && role === undefined) ? children : fallback}</>;
}
