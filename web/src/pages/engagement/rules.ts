/** Client-side checks of the engagement forms, the same as the server's (SPEC §5 comment scripts). */
import { limits } from '@/api/limits';

export const REPLY_MAX = limits.engagement.REPLY_MAX;
export const REPLIES_MAX = limits.engagement.REPLIES_MAX;

/** The server's contact-detail and link check (domain::matrix::has_contact), for early feedback. */
export function hasContact(s: string): boolean {
  const lower = s.toLowerCase();
  if (/\d[\d\- ]{5,}\d/.test(lower) && (lower.match(/\d/g) ?? []).length >= 7) return true;
  const marks = ['http://', 'https://', 'www.', '.com', '.cn', '.net', '微信', '加v', '加微', 'vx', 'wx:', 'wx：', 'weixin', 'wechat', 'qq', '扣扣', '电话', '手机号'];
  return marks.some((m) => lower.includes(m)) || (lower.includes('@') && lower.includes('.'));
}

/** Scripts from a text area: one per line, blanks dropped. */
export function scriptLines(raw: string): string[] {
  return raw
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
}

/** The first broken rule of a script list, as a key of the engagement texts; null when fine. */
export function scriptProblem(lines: string[]): { key: string; n?: number } | null {
  if (!lines.length) return { key: 'rule.repliesRequired' };
  if (lines.length > REPLIES_MAX) return { key: 'rule.repliesTooMany' };
  for (const [i, l] of lines.entries()) {
    if ([...l].length > REPLY_MAX) return { key: 'rule.replyTooLong', n: i + 1 };
    if (hasContact(l)) return { key: 'rule.replyContact', n: i + 1 };
  }
  return null;
}

/** "HH:mm" of a China minute of the day, and back. */
export const minuteText = (m: number) => `${String(Math.floor(m / 60) % 24).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
export function parseMinute(s: string): number | null {
  const m = /^(\d{1,2}):(\d{2})$/.exec(s.trim());
  if (!m) return null;
  const v = Number(m[1]) * 60 + Number(m[2]);
  return Number(m[1]) <= 24 && Number(m[2]) < 60 && v <= 1440 ? v : null;
}
