import { describe, expect, it } from 'vitest';
import { blocks, safeHref } from './richText';
import { isLink } from './system/rules';

describe('rich text', () => {
  it('splits paragraphs, headings and lists', () => {
    expect(blocks('# Title\nintro\nmore\n\n- a\n- b\n\n## Sub\nend')).toEqual([
      { kind: 'h1', text: 'Title' },
      { kind: 'p', text: 'intro\nmore' },
      { kind: 'ul', items: ['a', 'b'] },
      { kind: 'h2', text: 'Sub' },
      { kind: 'p', text: 'end' },
    ]);
  });

  it('opens http(s) and own paths only', () => {
    expect(safeHref('https://a.test/x')).toBe('https://a.test/x');
    expect(safeHref('/files/1/original')).toBe('/files/1/original');
    for (const bad of ['javascript:alert(1)', '//evil.test', 'data:text/html,x', 'http://a b']) expect(safeHref(bad)).toBeNull();
    expect(isLink('')).toBe(true);
    expect(isLink('ftp://x')).toBe(false);
  });
});
