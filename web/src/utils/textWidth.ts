/**
 * How wide a line of text is on screen. Used to give table headers and menu labels the room they
 * need, so English labels are neither cut nor broken inside a word. In a browser the text is measured
 * in antd's font; without a canvas (tests) it is estimated from the advance widths of a bold
 * Helvetica/Arial with a margin for the wider system sans fonts, CJK and full-width characters one em.
 */
import { theme } from 'antd';
import { isValidElement, type ReactNode } from 'react';

// bold Arial advance widths in 1/1000 em
const UPPER = [722, 722, 722, 722, 667, 611, 778, 722, 278, 556, 722, 611, 833, 722, 778, 667, 778, 722, 667, 611, 722, 667, 944, 667, 667, 611];
const LOWER = [556, 611, 556, 611, 556, 333, 611, 611, 278, 278, 556, 278, 889, 611, 611, 611, 611, 389, 556, 333, 611, 556, 778, 556, 556, 500];
const NARROW = new Set([' ', '.', ',', ':', ';', '!', '|', "'", 'i', 'l']);
const MARGIN = 1.2;

function advance(ch: string): number {
  const code = ch.codePointAt(0) ?? 0;
  if (code >= 0x41 && code <= 0x5a) return UPPER[code - 0x41];
  if (code >= 0x61 && code <= 0x7a) return LOWER[code - 0x61];
  if (code >= 0x30 && code <= 0x39) return 556;
  if (NARROW.has(ch)) return 278;
  // CJK, kana, hangul, full-width forms and emoji take a whole em
  if (code >= 0x1100) return 1000;
  return 600;
}

/** Width in px of `text` on one line by the advance-width table (bold; a little generous for regular). */
export function estimateWidth(text: string, fontSize = 14): number {
  let units = 0;
  for (const ch of text) units += advance(ch);
  return Math.ceil((units / 1000) * fontSize * MARGIN);
}

let canvas: CanvasRenderingContext2D | null | undefined;
let family = '';
function context(): CanvasRenderingContext2D | null {
  if (canvas !== undefined) return canvas;
  // jsdom has no canvas (and reports asking for one as an error)
  const real = typeof document !== 'undefined' && typeof navigator !== 'undefined' && !/jsdom/i.test(navigator.userAgent);
  canvas = real ? document.createElement('canvas').getContext('2d') : null;
  family = theme.getDesignToken().fontFamily;
  return canvas;
}

/** Width in px of `text` on one line at `fontSize` px in antd's font at `weight` (headers are 600). */
export function textWidth(text: string, fontSize = 14, weight = 600): number {
  const ctx = context();
  if (!ctx) return estimateWidth(text, fontSize);
  ctx.font = `${weight} ${fontSize}px ${family}`;
  return Math.ceil(ctx.measureText(text).width) + 2;
}

/** The plain text of a header or label (strings and numbers inside elements, in order). */
export function nodeText(node: ReactNode): string {
  if (node === null || node === undefined || typeof node === 'boolean') return '';
  if (typeof node === 'string' || typeof node === 'number') return String(node);
  if (Array.isArray(node)) return node.map(nodeText).join('');
  if (isValidElement<{ children?: ReactNode }>(node)) return nodeText(node.props.children);
  return '';
}
