import { describe, expect, it } from 'vitest';
import { ExpressionError, evaluateExpression as ev } from './expression';

const values = { type: 2, kind: 'video', enabled: true, count: '5', tags: [], list: ['a'], nested: { mode: 'x' }, empty: '' };

describe('safe expression evaluator', () => {
  it('compares field names with literals', () => {
    expect(ev('type == 2', values)).toBe(true);
    expect(ev("type == '2'", values)).toBe(true);
    expect(ev("type === '2'", values)).toBe(false);
    expect(ev('type === 2', values)).toBe(true);
    expect(ev("kind != 'image'", values)).toBe(true);
    expect(ev('kind !== "video"', values)).toBe(false);
    expect(ev('count > 3', values)).toBe(true);
    expect(ev('count >= 5 && count <= 5', values)).toBe(true);
    expect(ev('count < 5', values)).toBe(false);
    expect(ev('type > -1', values)).toBe(true);
    expect(ev('3.5 < type', values)).toBe(false);
  });

  it('&&, ||, ! and parentheses with the usual precedence', () => {
    expect(ev("type == 1 || kind == 'video' && enabled", values)).toBe(true);
    expect(ev("(type == 1 || kind == 'video') && !enabled", values)).toBe(false);
    expect(ev('!enabled', values)).toBe(false);
    expect(ev('!!enabled', values)).toBe(true);
    expect(ev('!missing', values)).toBe(true);
  });

  it('string, number, boolean and null literals', () => {
    expect(ev('enabled == true', values)).toBe(true);
    expect(ev('enabled == 1', values)).toBe(true);
    expect(ev('missing == null', values)).toBe(true);
    expect(ev('missing == undefined', values)).toBe(true);
    expect(ev("empty == ''", values)).toBe(true);
    expect(ev("'it\\'s' == \"it's\"", values)).toBe(true);
  });

  it('names: nested paths, indexes, the form alias; an empty array is falsy', () => {
    expect(ev("nested.mode == 'x'", values)).toBe(true);
    expect(ev("list[0] == 'a'", values)).toBe(true);
    expect(ev("form.kind == 'video'", values)).toBe(true);
    expect(ev("formData.type == 2", values)).toBe(true);
    expect(ev('tags', values)).toBe(false);
    expect(ev('list', values)).toBe(true);
  });

  it('never reaches outside the values', () => {
    expect(ev('constructor', values)).toBe(false);
    expect(ev('kind.constructor', values)).toBe(false);
    expect(ev('__proto__', values)).toBe(false);
    expect(ev('window', values)).toBe(false);
    expect(() => ev('alert(1)', values)).toThrow(ExpressionError);
    expect(() => ev('type = 1', values)).toThrow(ExpressionError);
    expect(() => ev('type + 1', values)).toThrow(ExpressionError);
    expect(() => ev('`x`', values)).toThrow(ExpressionError);
  });

  it('rejects malformed text', () => {
    expect(() => ev('', values)).toThrow(ExpressionError);
    expect(() => ev('(type == 1', values)).toThrow(ExpressionError);
    expect(() => ev("kind == 'open", values)).toThrow(ExpressionError);
    expect(() => ev('type ==', values)).toThrow(ExpressionError);
    expect(() => ev('a b', values)).toThrow(ExpressionError);
  });
});
