/**
 * Table headers that fit (SPEC §2 table; issue: English headers broke inside words, "Capacit y"):
 * a header stays on one line, and a column given a width too narrow for its header text is widened to
 * fit it, with the cell padding and the sort and filter icons — measured in the language shown, so an
 * English header gets the room its longer words need.
 */
import type { CSSProperties, ReactNode } from 'react';
import { nodeText, textWidth } from '@/utils/textWidth';

/** antd's header cell padding at the largest table size (16 px each side) and its border. */
const CELL_PADDING = 33;
/** The sort arrows with their gap. */
const SORTER_ROOM = 24;
/** The column filter trigger. */
const FILTER_ROOM = 30;

export const HEADER_STYLE: CSSProperties = { whiteSpace: 'nowrap', wordBreak: 'keep-all' };

interface FitColumn {
  title?: unknown;
  width?: number | string;
  minWidth?: number;
  sorter?: unknown;
  filters?: unknown;
  filterDropdown?: unknown;
  onHeaderCell?: (column: never) => object;
}

/** The width a column needs for its header on one line (0 when the title is not text). */
export function headerWidth(col: FitColumn): number {
  const text = typeof col.title === 'function' ? '' : nodeText(col.title as ReactNode);
  if (!text) return 0;
  return textWidth(text) + CELL_PADDING + (col.sorter ? SORTER_ROOM : 0) + (col.filters || col.filterDropdown ? FILTER_ROOM : 0);
}

/** The column with a one-line header and a width (or, without one, a minimum width) that fits it. */
export function fitHeader<C extends FitColumn>(col: C): C {
  const need = headerWidth(col);
  const own = col.onHeaderCell;
  const out: C = {
    ...col,
    onHeaderCell: (column: never) => {
      const props = (own?.(column) ?? {}) as { style?: CSSProperties };
      return { ...props, style: { ...HEADER_STYLE, ...props.style } };
    },
  };
  if (typeof col.width === 'number') out.width = Math.max(col.width, need);
  else if (col.width === undefined && need) out.minWidth = Math.max(col.minWidth ?? 0, need);
  return out;
}

/** The least room a column without a width gets: a date, a name or a short sentence on one line. */
export const FLEX_MIN = 140;

/**
 * How wide a horizontally scrolled table must be so that no column is squeezed under a fixed one
 * (SPEC §2 table): the columns' widths, and for the columns without one a share each of what is left
 * — antd lays a scrolled table out with fixed layout, which gives those columns equal shares, so every
 * share must hold the widest of their needs (header or FLEX_MIN).
 */
export function widthSum(cols: readonly FitColumn[]): number {
  let fixed = 0;
  let flex = 0;
  let share = 0;
  for (const c of cols) {
    if (typeof c.width === 'number') fixed += c.width;
    else {
      flex += 1;
      share = Math.max(share, c.minWidth ?? 0, FLEX_MIN);
    }
  }
  return fixed + flex * share;
}
