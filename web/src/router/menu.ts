/** Maps the server menu (GET /ajax/initAdmin `menu`) onto the locally declared routes. */
import type { MenuNode } from '@/api/auth/types';
import i18n from '@/i18n';
import { appRoutes, routeByPath } from './routes';

/** Title of a menu node: its i18n key when known, else the local route's title, else the raw name. */
export function menuTitle(name: string | null | undefined, path?: string): string {
  if (name && i18n.exists(name, { ns: 'common' })) {
    const value = i18n.t(name, { ns: 'common' });
    if (typeof value === 'string') return value;
  }
  const route = path ? routeByPath.get(path) : undefined;
  if (route) return i18n.t(route.meta.title, { ns: 'common' });
  return name || path || '';
}

export interface MenuEntry {
  key: string;
  path?: string;
  title: string;
  icon?: string | null;
  children?: MenuEntry[];
}

export interface MenuFilter {
  isAdmin: boolean;
  /** The console language: routes of the other language's table (`meta.lang`) are left out. */
  lang?: string;
}

/** Whether a route is in the route table of the console language (SPEC §2). */
export function inLanguage(meta: { lang?: string }, lang: string | undefined): boolean {
  return !meta.lang || !lang || meta.lang === lang;
}

/**
 * Visible entries: hidden nodes, nodes without a local route and routes of the other language's table
 * are left out; admin nodes need Administrator.
 */
export function buildMenu(nodes: readonly MenuNode[], filter: MenuFilter): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const node of nodes ?? []) {
    if (node.hidden) continue;
    if (node.admin && !filter.isAdmin) continue;
    const children = node.children?.length ? buildMenu(node.children, filter) : [];
    const route = routeByPath.get(node.path);
    if (children.length) {
      out.push({ key: `group:${node.id}`, title: node.name, icon: node.icon, children });
    } else if (route && route.meta.layout !== false) {
      if (route.meta.admin && !filter.isAdmin) continue;
      if (!inLanguage(route.meta, filter.lang)) {
        // The other language's route of the same screen (SPEC §2: /newAiHome in zh is /oneKeyVideoNew in en).
        const twin = appRoutes.find((r) => r.meta.menuPath === node.path && r.meta.lang && r.meta.lang === filter.lang);
        if (twin) out.push({ key: twin.path, path: twin.path, title: node.name || twin.meta.title, icon: node.icon ?? twin.meta.icon });
        continue;
      }
      out.push({ key: node.path, path: node.path, title: node.name || route.meta.title, icon: node.icon ?? route.meta.icon });
    }
  }
  return out;
}

/** Every node path of the tree, hidden ones included (what the server lets the user open). */
export function menuPaths(nodes: readonly MenuNode[]): string[] {
  return (nodes ?? []).flatMap((n) => [n.path, ...menuPaths(n.children ?? [])]).filter(Boolean);
}

export function firstLeaf(entries: readonly MenuEntry[]): string | undefined {
  for (const e of entries) {
    if (e.path) return e.path;
    const inner = e.children && firstLeaf(e.children);
    if (inner) return inner;
  }
  return undefined;
}

/** Where `/` goes: the dashboard when granted, else the first menu the user has, else the user center. */
export function homePath(nodes: readonly MenuNode[], filter: MenuFilter): string {
  const visible = buildMenu(nodes, filter);
  if (menuPaths(nodes).includes('/dashboard')) return '/dashboard';
  return firstLeaf(visible) ?? '/usercenter';
}

/** Group keys leading to a path, to open the right sub menus. */
export function openKeysFor(entries: readonly MenuEntry[], path: string, trail: string[] = []): string[] {
  for (const e of entries) {
    if (e.path === path) return trail;
    if (e.children) {
      const found = openKeysFor(e.children, path, [...trail, e.key]);
      if (found.length || e.children.some((c) => c.path === path)) return found.length ? found : [...trail, e.key];
    }
  }
  return [];
}
