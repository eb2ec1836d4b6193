import { describe, expect, it } from 'vitest';
import type { Tag } from '@/api/nfc/types';
import { cleanTopics, longTitleLines, poolLevel, tagToForm, titleLines, toTagReq, withEnabled } from './rules';

describe('titles, one per line (each ≤ 50 characters)', () => {
  it('trims, drops blank lines and keeps each line number', () => {
    expect(titleLines(' a \n\n b\r\nc ')).toEqual([
      { line: 1, title: 'a', length: 1 },
      { line: 3, title: 'b', length: 1 },
      { line: 4, title: 'c', length: 1 },
    ]);
    expect(titleLines('')).toEqual([]);
  });
  it('names the lines that are too long, counting code points', () => {
    const fifty = '字'.repeat(50);
    expect(longTitleLines(`${fifty}\n\n${fifty}多\n${'😀'.repeat(50)}`)).toEqual([{ line: 3, title: `${fifty}多`, length: 51 }]);
  });
});

describe('pools', () => {
  it('warns under 5 videos left, and when none is left', () => {
    expect(poolLevel(0)).toBe('empty');
    expect(poolLevel(4)).toBe('low');
    expect(poolLevel(5)).toBe('ok');
  });
});

describe('tag request', () => {
  const tag: Tag = {
    id: 1,
    name: ' Table 1 ',
    code: 'k1',
    url: 'http://x/t/k1',
    platform: 'dy',
    pool_kind: 'group',
    pool_id: 7,
    pool_name: 'Dishes',
    activity_id: 3,
    activity_name: 'Spring',
    topics: ['#food', 'food', ' shop '],
    enabled: true,
    titles: 2,
    pool_size: 10,
    pool_left: 4,
    taps: 0,
    posts: 0,
    created_at: 0,
  };
  it('topics lose their #, blanks and repeats', () => {
    expect(cleanTopics(['#a', 'a', ' ', '##b '])).toEqual(['a', 'b']);
  });
  it('maps the form and switches enabled', () => {
    expect(toTagReq(tagToForm(tag))).toEqual({ name: 'Table 1', platform: 'dy', pool_kind: 'group', pool_id: 7, activity_id: 3, topics: ['food', 'shop'], enabled: true });
    expect(withEnabled(tag, false).enabled).toBe(false);
  });
});
