/**
 * The timeline editor's rules (docs/api-materials.md "Subtitles"): lines in seconds, the end after the
 * start and not past the media's end (the server allows 0.5 s of slack), content required and at most
 * 200 characters. The server checks the same on save and names the first bad line's numbers in its
 * 422 message ('Invalid subtitle timing: 3 → 2: …' / '… 9.5 s is past the end …'); `locateServerError`
 * finds that line so the message shows on it.
 */
import type { AsrLine, AsrLineView } from '@/api/materials/types';
import { roundSec } from './format';

export const MAX_LINE_CHARS = 200;
export const END_SLACK_S = 0.5;
/** Length of a line added at the player's position. */
export const NEW_LINE_S = 2;

export interface EditLine {
  uid: string;
  start: number | undefined;
  end: number | undefined;
  content: string;
}

export type LineField = 'start' | 'end' | 'content';

export interface LineProblem {
  field: LineField;
  /** Text key in the materials namespace. */
  key: string;
  params?: Record<string, unknown>;
}

let seq = 0;
export const lineUid = () => `tl-${++seq}`;

export function toEditLines(lines: readonly AsrLineView[]): EditLine[] {
  return lines.map((l) => ({ uid: lineUid(), start: l.start, end: l.end, content: l.content }));
}

export function toAsrLines(lines: readonly EditLine[]): AsrLine[] {
  return lines.map((l) => ({ start: Number(l.start), end: Number(l.end), content: l.content.trim() }));
}

const isNum = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

/** The first problem of one line (what the server would refuse), or null. */
export function lineProblem(line: EditLine, duration: number): LineProblem | null {
  if (!isNum(line.start)) return { field: 'start', key: 'timeline.errors.number' };
  if (!isNum(line.end)) return { field: 'end', key: 'timeline.errors.number' };
  if (line.start < 0) return { field: 'start', key: 'timeline.errors.negative' };
  if (line.end <= line.start) return { field: 'end', key: 'timeline.errors.order' };
  if (duration > 0 && line.end > duration + END_SLACK_S) return { field: 'end', key: 'timeline.errors.pastEnd', params: { duration: roundSec(duration) } };
  const content = line.content.trim();
  if (!content) return { field: 'content', key: 'timeline.errors.content' };
  if ([...content].length > MAX_LINE_CHARS) return { field: 'content', key: 'timeline.errors.tooLong', params: { max: MAX_LINE_CHARS } };
  return null;
}

const same = (a: number | undefined, b: number) => isNum(a) && Math.abs(a - b) < 1e-6;

/** Which line (and field) a save's 422 message is about; null when it cannot tell. */
export function locateServerError(message: string, lines: readonly EditLine[], duration = 0): { index: number; field: LineField } | null {
  const order = /(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*→\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)/.exec(message);
  if (order) {
    const [a, b] = [Number(order[1]), Number(order[2])];
    const index = lines.findIndex((l) => same(l.start, a) && same(l.end, b));
    if (index !== -1) return { index, field: 'end' };
  }
  const past = /(-?\d+(?:\.\d+)?)\s*s\b/.exec(message);
  if (past) {
    const end = Number(past[1]);
    const index = lines.findIndex((l) => same(l.end, end));
    if (index !== -1) return { index, field: 'end' };
  }
  // no numbers to go by: the first line this side would refuse too
  const index = lines.findIndex((l) => lineProblem(l, duration) !== null);
  if (index !== -1) return { index, field: lineProblem(lines[index], duration)!.field };
  return null;
}

/** A new line at the player's position: `NEW_LINE_S` long, kept inside the media. */
export function newLineAt(current: number, duration: number): EditLine {
  const start = roundSec(Math.max(0, duration > 0 ? Math.min(current, Math.max(0, duration - 0.1)) : current));
  const end = roundSec(duration > 0 ? Math.min(duration, start + NEW_LINE_S) : start + NEW_LINE_S);
  return { uid: lineUid(), start, end: end > start ? end : roundSec(start + 0.1), content: '' };
}

/** Index of the line playing at `time` (-1: none). */
export function activeLineIndex(lines: readonly EditLine[], time: number): number {
  return lines.findIndex((l) => isNum(l.start) && isNum(l.end) && time >= l.start && time < l.end);
}
