/**
 * Permission strings are paths split in three segments (`user/merchant_user_sub/add`).
 * A granted `*` segment matches any segment, `*\/*\/*` grants everything. A `*` in the needed string
 * means "anything under this prefix", so a route needing `index/log/*` is open to `index/log/index`.
 */
import { ADMIN_ROLE } from '@/config';

export type PermissionMode = 'one' | 'any' | 'all';

export const ALL_PERMISSIONS = '*/*/*';

function split(value: string): string[] {
  return value.replace(/^\/+|\/+$/g, '').split('/');
}

export function matchPermission(granted: string, needed: string): boolean {
  if (granted === ALL_PERMISSIONS) return true;
  const g = split(granted);
  const n = split(needed);
  if (g.length !== n.length) return false;
  return g.every((segment, i) => segment === '*' || n[i] === '*' || segment === n[i]);
}

/**
 * one: the single permission `needed` (first one when a list is given);
 * any: at least one of `needed`; all: every one of `needed`.
 */
export function hasPermission(
  granted: readonly string[] | null | undefined,
  needed: string | readonly string[] | null | undefined,
  mode: PermissionMode = 'one',
): boolean {
  if (needed === null || needed === undefined) return true;
  const list = typeof needed === 'string' ? [needed] : [...needed];
  if (list.length === 0) return true;
  const perms = granted ?? [];
  const ok = (p: string) => perms.some((g) => matchPermission(g, p));
  switch (mode) {
    case 'one':
      return ok(list[0]);
    case 'any':
      return list.some(ok);
    case 'all':
      return list.every(ok);
  }
}

/** Role membership: true when the user has one of the given roles. */
export function hasRole(roles: readonly string[] | null | undefined, needed: string | readonly string[]): boolean {
  const list = typeof needed === 'string' ? [needed] : needed;
  return (roles ?? []).some((r) => list.includes(r));
}

export function isAdministrator(roles: readonly string[] | null | undefined): boolean {
  return hasRole(roles, ADMIN_ROLE);
}

/** The permission string of a call path: `/user.merchant_user_sub/add` -> `user/merchant_user_sub/add`. */
export function permissionOfPath(path: string): string {
  const clean = path.replace(/^\/+/, '').split('?')[0];
  const [head, ...rest] = clean.split('/');
  const first = head.includes('.') ? head.replace('.', '/') : head;
  const parts = [...first.split('/'), ...rest].filter(Boolean);
  if (parts.length === 2) parts.push('index');
  return parts.join('/');
}
