/**
 * Column settings of a DataTable (SPEC §2 "column-settings popover", §4, §7 "kept in session storage,
 * not sent to a server"): per column shown/hidden, order, width and fixed side.
 */
import { PREFIX, sessionStore } from '@/utils/storage';

export type FixedSide = 'left' | 'right';

export interface ColumnSetting {
  key: string;
  hide: boolean;
  width?: number;
  fixed?: FixedSide;
}

export interface ColumnDefault {
  key: string;
  hide?: boolean;
  width?: number | string;
  fixed?: boolean | FixedSide;
}

export const settingsKey = (tableId: string) => `table_columns_${tableId}`;

export function defaultSettings(columns: readonly ColumnDefault[]): ColumnSetting[] {
  return columns.map((c) => ({
    key: c.key,
    hide: Boolean(c.hide),
    width: typeof c.width === 'number' ? c.width : undefined,
    fixed: c.fixed === true ? 'left' : c.fixed || undefined,
  }));
}

/**
 * The stored settings laid over the columns: stored order first, then columns the stored list does
 * not know (added since) at their own place. Accepts the earlier format (a list of hidden keys).
 */
export function mergeSettings(columns: readonly ColumnDefault[], stored: unknown): ColumnSetting[] {
  const defaults = defaultSettings(columns);
  if (Array.isArray(stored) && stored.every((s) => typeof s === 'string')) {
    const hidden = new Set(stored as string[]);
    return defaults.map((d) => ({ ...d, hide: hidden.has(d.key) }));
  }
  if (!Array.isArray(stored)) return defaults;
  const known = new Map(defaults.map((d) => [d.key, d]));
  const out: ColumnSetting[] = [];
  for (const s of stored as Partial<ColumnSetting>[]) {
    if (!s || typeof s.key !== 'string' || !known.has(s.key) || out.some((o) => o.key === s.key)) continue;
    const d = known.get(s.key)!;
    out.push({
      key: s.key,
      hide: typeof s.hide === 'boolean' ? s.hide : d.hide,
      width: typeof s.width === 'number' && s.width > 0 ? s.width : d.width,
      fixed: s.fixed === 'left' || s.fixed === 'right' ? s.fixed : undefined,
    });
  }
  defaults.forEach((d, index) => {
    if (out.some((o) => o.key === d.key)) return;
    out.splice(Math.min(index, out.length), 0, d);
  });
  return out;
}

export function loadSettings(tableId: string, columns: readonly ColumnDefault[]): ColumnSetting[] {
  return mergeSettings(columns, sessionStore.get<unknown>(settingsKey(tableId)));
}

/** Throws when session storage refuses the write ('save failed'). */
export function storeSettings(tableId: string, settings: ColumnSetting[]): void {
  // like sessionStore.set (same entry format), but a refused write is reported instead of swallowed
  window.sessionStorage.setItem(PREFIX + settingsKey(tableId), JSON.stringify({ v: settings }));
}

/** Throws when session storage is unavailable ('reset failed'). */
export function clearSettings(tableId: string): void {
  window.sessionStorage.removeItem(PREFIX + settingsKey(tableId));
}

export function move(settings: ColumnSetting[], key: string, delta: -1 | 1): ColumnSetting[] {
  const from = settings.findIndex((s) => s.key === key);
  const to = from + delta;
  if (from < 0 || to < 0 || to >= settings.length) return settings;
  const next = [...settings];
  [next[from], next[to]] = [next[to], next[from]];
  return next;
}
