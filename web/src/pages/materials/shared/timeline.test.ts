import { describe, expect, it } from 'vitest';
import { activeLineIndex, lineProblem, locateServerError, newLineAt, toAsrLines, toEditLines, type EditLine } from './timeline';

const line = (start: number | undefined, end: number | undefined, content = 'hi'): EditLine => ({ uid: `u${start}-${end}`, start, end, content });

describe('timeline rules', () => {
  it('accepts a line inside the media with text', () => {
    expect(lineProblem(line(0, 1.5), 2)).toBeNull();
    expect(lineProblem(line(1, 2.4), 2)).toBeNull(); // 0.5 s of slack past the end, like the server
  });

  it('names the field of the first problem', () => {
    expect(lineProblem(line(undefined, 1), 2)).toMatchObject({ field: 'start', key: 'timeline.errors.number' });
    expect(lineProblem(line(-1, 1), 2)).toMatchObject({ field: 'start', key: 'timeline.errors.negative' });
    expect(lineProblem(line(1, 1), 2)).toMatchObject({ field: 'end', key: 'timeline.errors.order' });
    expect(lineProblem(line(1, 0.5), 2)).toMatchObject({ field: 'end', key: 'timeline.errors.order' });
    expect(lineProblem(line(1, 2.6), 2)).toMatchObject({ field: 'end', key: 'timeline.errors.pastEnd', params: { duration: 2 } });
    expect(lineProblem(line(1, 2, '   '), 2)).toMatchObject({ field: 'content', key: 'timeline.errors.content' });
    expect(lineProblem(line(1, 2, 'x'.repeat(201)), 2)).toMatchObject({ field: 'content', key: 'timeline.errors.tooLong' });
    expect(lineProblem(line(1, 99), 0)).toBeNull(); // duration unknown: the server decides
  });

  it('finds the line a 422 from save_asr_times is about', () => {
    const lines = [line(0, 1), line(1, 3), line(3, 9.5)];
    expect(locateServerError('Invalid subtitle timing: 1 → 3: the end must come after the start', lines)).toEqual({ index: 1, field: 'end' });
    expect(locateServerError('字幕时间无效：9.5 s is past the end of the media (4 s)', lines)).toEqual({ index: 2, field: 'end' });
    expect(locateServerError('This field is required', [line(0, 1), line(1, 2, ' ')], 10)).toEqual({ index: 1, field: 'content' });
    expect(locateServerError('something else', [line(0, 1)], 10)).toBeNull();
  });

  it('adds a 2 s line at the player position, kept inside the media', () => {
    expect(newLineAt(1.234, 10)).toMatchObject({ start: 1.23, end: 3.23, content: '' });
    expect(newLineAt(9.5, 10)).toMatchObject({ start: 9.5, end: 10 });
    expect(newLineAt(12, 10)).toMatchObject({ start: 9.9, end: 10 });
    expect(newLineAt(3, 0)).toMatchObject({ start: 3, end: 5 });
  });

  it('converts to and from the server lines, trimming the text', () => {
    const edit = toEditLines([{ id: 1, start: 0, end: 1, content: 'a' }]);
    expect(edit[0]).toMatchObject({ start: 0, end: 1, content: 'a' });
    expect(toAsrLines([{ ...edit[0], content: '  b ' }])).toEqual([{ start: 0, end: 1, content: 'b' }]);
  });

  it('knows which line is playing', () => {
    const lines = [line(0, 1), line(1, 2)];
    expect(activeLineIndex(lines, 0.5)).toBe(0);
    expect(activeLineIndex(lines, 1)).toBe(1);
    expect(activeLineIndex(lines, 2)).toBe(-1);
  });
});
