import { describe, expect, it } from 'vitest';
import { hasContact, minuteText, parseMinute, scriptLines, scriptProblem } from './rules';

describe('engagement form rules', () => {
  it('checks reply scripts like the server', () => {
    expect(scriptProblem(scriptLines('您好，已私信您\n\n感谢关注'))).toBeNull();
    expect(scriptProblem([])).toEqual({ key: 'rule.repliesRequired' });
    expect(scriptProblem(['a', 'b', 'c', 'd', 'e', 'f'])).toEqual({ key: 'rule.repliesTooMany' });
    expect(scriptProblem(['好', '字'.repeat(31)])).toEqual({ key: 'rule.replyTooLong', n: 2 });
    expect(scriptProblem(['加微信 abc123'])).toEqual({ key: 'rule.replyContact', n: 1 });
    expect(hasContact('打 138-1234-5678')).toBe(true);
    expect(hasContact('看 https://x.cn')).toBe(true);
    expect(hasContact('第3次来了，2 个人吃 199 元')).toBe(false);
  });

  it('reads and writes times of day', () => {
    expect(minuteText(545)).toBe('09:05');
    expect(parseMinute('22:30')).toBe(1350);
    expect(parseMinute('24:00')).toBe(1440);
    expect(parseMinute('25:00')).toBeNull();
  });
});
