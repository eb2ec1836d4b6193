/**
 * The server's menu table (crates/domain/src/menus, one file per area) and the console's route
 * modules (router/modules/<area>.ts) describe the same pages. menus.json is the server's table as the
 * Rust test `menus_json_is_current` checks it; this compares it with the route modules: each menu
 * page is a route of its area's module with the same icon and admin flag, and a staff member granted
 * only that menu passes the route's permission check. Routes that are no menu are listed below.
 */
import { describe, expect, it } from 'vitest';
import { hasPermission } from '@/access/permission';
import menus from './menus.json';
import type { AppRoute } from './types';

interface Menu {
  area: string;
  path: string;
  parent: string | null;
  name: string;
  icon: string;
  admin: boolean;
  hidden: boolean;
  grants: string[];
}

const table = menus as Menu[];
const modules = import.meta.glob<{ default: AppRoute[] }>('./modules/*.ts', { eager: true });
const routesByArea = new Map(
  Object.entries(modules).map(([file, m]) => [file.replace(/^\.\/modules\/|\.ts$/g, ''), m.default]),
);
const parents = new Set(table.map((m) => m.parent).filter((p): p is string => p !== null));

/** A route that is no menu of its own: sign-in pages, pages opened from another page, second paths of one page. */
function notAMenu(r: AppRoute): boolean {
  return r.meta.layout === false || r.meta.hidden === true || r.meta.menuPath !== undefined;
}

describe('menus (server) and route modules (console)', () => {
  it('name the same areas', () => {
    expect([...new Set(table.map((m) => m.area))].sort()).toEqual([...routesByArea.keys()].sort());
  });

  it.each(table.filter((m) => !parents.has(m.path)).map((m) => [m.path, m] as const))(
    'menu %s is a route of its area with its icon, admin flag and permission',
    (_, menu) => {
      const route = routesByArea.get(menu.area)?.find((r) => r.path === menu.path);
      expect(route, `${menu.path} is not a route of router/modules/${menu.area}.ts`).toBeDefined();
      if (!route) return;
      expect(route.meta.icon ?? '', `${menu.path}: icon`).toBe(menu.icon);
      expect(route.meta.admin === true, `${menu.path}: admin flag`).toBe(menu.admin);
      expect(
        hasPermission(menu.grants, route.meta.permission, route.meta.permissionMode),
        `${menu.path}: its menu's grants (${menu.grants.join(', ')}) do not open ${String(route.meta.permission)}`,
      ).toBe(true);
    },
  );

  it('every menu route of a module is a menu of the same area', () => {
    const stray: string[] = [];
    for (const [area, routes] of routesByArea) {
      for (const r of routes.filter((r) => !notAMenu(r))) {
        if (!table.some((m) => m.area === area && m.path === r.path)) stray.push(`${area}: ${r.path}`);
      }
    }
    expect(stray).toEqual([]);
  });
});
