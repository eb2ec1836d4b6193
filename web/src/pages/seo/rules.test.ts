import { describe, expect, it } from 'vitest';
import type { ExcavateWord } from '@/api/seo/types';
import { changeText, chipSizes, cleanWords, emptyGenerateForm, excavateTree, longWords, scorePercent, titleLang, toGenerateReq, withAiLabel, wordLines } from './rules';

const w = (word: string, depth: 1 | 2, parent = ''): ExcavateWord => ({ word, kind: 'related', depth, parent, heat: 1, trend: [], change: 0, collected: false, covered: 0 });

describe('seo rules', () => {
  it('one word a line: trimmed, blanks and repeats dropped', () => {
    expect(wordLines(' 火锅 \r\n\n串串\n火锅\n  \n冒菜 ')).toEqual(['火锅', '串串', '冒菜']);
    expect(wordLines(undefined)).toEqual([]);
    expect(longWords(['a'.repeat(20), 'b'.repeat(21)])).toEqual(['b'.repeat(21)]);
    expect(cleanWords(['#火锅', ' 火锅', '', '串串'])).toEqual(['火锅', '串串']);
  });

  it('change as a signed percentage, title language from the console language', () => {
    expect([changeText(0.124), changeText(-0.05), changeText(0), changeText(undefined)]).toEqual(['+12%', '-5%', '0%', '0%']);
    expect([titleLang('zh-CN'), titleLang('en'), titleLang(undefined)]).toEqual(['zh', 'en', 'zh']);
  });

  it('mined words as a two-level tree', () => {
    const tree = excavateTree([w('火锅店', 1), w('火锅店推荐', 2, '火锅店'), w('火锅底料', 1), w('火锅店排名', 2, '火锅店'), w('迷路', 2, '不在')]);
    expect(tree.map((n) => [n.word, n.children?.map((c) => c.word)])).toEqual([
      ['火锅店', ['火锅店推荐', '火锅店排名']],
      ['火锅底料', undefined],
      ['迷路', undefined],
    ]);
    expect(tree[0].children?.[0].key).toBe('火锅店/火锅店推荐');
  });

  it('chip sizes follow the weight', () => {
    expect(chipSizes([{ word: 'a', weight: 1 }, { word: 'b', weight: 3 }, { word: 'c', weight: 2 }])).toEqual([12, 26, 19]);
    expect(chipSizes([{ word: 'a', weight: 5 }])).toEqual([19]);
  });
});

describe('titles from keywords', () => {
  it('sends only the parts given', () => {
    expect(toGenerateReq(emptyGenerateForm('zh'))).toEqual({ count: 20, max_chars: 50, lang: 'zh' });
    expect(toGenerateReq({ ...emptyGenerateForm('en', ['#hot pot', 'hot pot', ' noodles'], 20), text: '  Best spicy hot pot  ', category_id: 3, styles: ['question'], count: 5 })).toEqual({
      keywords: ['hot pot', 'noodles'],
      text: 'Best spicy hot pot',
      category_id: 3,
      styles: ['question'],
      count: 5,
      max_chars: 20,
      lang: 'en',
    });
  });
});

describe('score', () => {
  it('reads 0..1 and 0..100 alike', () => {
    expect([scorePercent(0.8), scorePercent(80), scorePercent(1), scorePercent(150), scorePercent(undefined)]).toEqual([80, 80, 100, 100, 0]);
  });
});

describe('generated titles copied out (GB 45438-2025 §5.1)', () => {
  it('carry the text prompt on the first line', () => {
    expect(withAiLabel(['春季上新', '限时优惠'])).toBe('【本内容由AI生成】\n春季上新\n限时优惠');
  });
});
