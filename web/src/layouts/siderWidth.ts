/**
 * The side menu's width: 220 px (SPEC layout) unless a label in the current language needs more, up
 * to 300 px (English "Account authorization" was cut to "Account authori...").
 */
import { menuTitle, type MenuEntry } from '@/router/menu';
import { textWidth } from '@/utils/textWidth';

export const SIDER_WIDTH = 220;
export const SIDER_MAX_WIDTH = 300;

// antd's inline menu: 24 px indent a level, the icon with its gap 24 px, 16 px at the right (34 beside a
// submenu's arrow) and a 4 px margin either side of the item
const INDENT = 24;
const ICON = 24;
const RIGHT = 16;
const ARROW = 34;
const MARGIN = 8;

/** The room the widest label needs (level 1 items are indented once). */
export function menuLabelWidth(entries: readonly MenuEntry[], level = 1): number {
  let widest = 0;
  for (const e of entries) {
    const own = INDENT * level + (e.icon ? ICON : 0) + textWidth(menuTitle(e.title, e.path), 14, 400) + (e.children?.length ? ARROW : RIGHT) + MARGIN;
    widest = Math.max(widest, own, e.children?.length ? menuLabelWidth(e.children, level + 1) : 0);
  }
  return widest;
}

export function siderWidth(entries: readonly MenuEntry[]): number {
  return Math.min(SIDER_MAX_WIDTH, Math.max(SIDER_WIDTH, menuLabelWidth(entries)));
}
