import { describe, expect, it } from 'vitest';
import type { PickVideo } from '@/api/clip/slice';
import en from '@/locales/en/slice.json';
import zhCN from '@/locales/zh-CN/slice.json';
import { clock, sliceProblems, sourcesSummary, toSettings, withoutSubtitles } from './rules';

const video = (id: number, asr_state = ''): PickVideo => ({ id, name: `v${id}`, kind: 'video', state: 'ready', duration_ms: 12000, group_id: 1, poster: null, asr_state });
const VIDEOS = [video(1, 'success'), video(2)];

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

describe('batch slice form rules (docs/api-clip.md "Batch slice")', () => {
  const good = { name: 'Talk', mode: 'fixed' as const, seconds: 4, group_id: 9, resource_ids: [1] };
  const fields = (v: Parameters<typeof sliceProblems>[0], videos = VIDEOS) => sliceProblems(v, videos).map((p) => `${p.field}:${p.key}`);

  it('accepts a complete fixed-length project', () => {
    expect(fields(good)).toEqual([]);
  });

  it('names every broken rule on its field', () => {
    expect(fields({ ...good, name: '  ' })).toEqual(['name:nameRequired']);
    expect(fields({ ...good, name: 'x'.repeat(51) })).toEqual(['name:nameTooLong']);
    expect(fields({ ...good, name: '一'.repeat(50) })).toEqual([]);
    expect(fields({ ...good, resource_ids: [] })).toEqual(['resource_ids:videosRequired']);
    expect(fields({ ...good, seconds: null })).toEqual(['seconds:secondsRequired']);
    expect(fields({ ...good, seconds: 0 })).toEqual(['seconds:secondsRange']);
    expect(fields({ ...good, seconds: 61 })).toEqual(['seconds:secondsRange']);
    expect(fields({ ...good, seconds: 2.5 })).toEqual(['seconds:secondsRange']);
    expect(fields({ ...good, group_id: null })).toEqual(['group_id:groupRequired']);
  });

  it('subtitle mode needs min ≤ max within 1–60 and recognized subtitles on every video', () => {
    const sub = { ...good, mode: 'subtitle' as const, seconds: null, min_seconds: 3, max_seconds: 8 };
    expect(fields(sub)).toEqual([]);
    expect(fields({ ...sub, min_seconds: 9 })).toEqual(['min_seconds:minOverMax']);
    expect(fields({ ...sub, max_seconds: null })).toEqual(['max_seconds:secondsRequired']);
    expect(fields({ ...sub, min_seconds: 0, max_seconds: 70 })).toEqual(['min_seconds:secondsRange', 'max_seconds:secondsRange']);
    expect(fields({ ...sub, resource_ids: [1, 2] })).toEqual(['resource_ids:noSubtitles']);
    expect(withoutSubtitles([1, 2], VIDEOS).map((v) => v.id)).toEqual([2]);
    // editing: no video list to check
    expect(sliceProblems({ ...sub, resource_ids: [] }).length).toBe(0);
  });

  it('sends only the lengths the mode uses', () => {
    expect(toSettings({ ...good, name: ' Talk ', min_seconds: 3 })).toEqual({ name: 'Talk', mode: 'fixed', seconds: 4, group_id: 9 });
    expect(toSettings({ ...good, mode: 'subtitle', min_seconds: 3, max_seconds: 8 })).toEqual({
      name: 'Talk',
      mode: 'subtitle',
      min_seconds: 3,
      max_seconds: 8,
      group_id: 9,
    });
  });

  it('formats times and summarises sources', () => {
    expect(clock(4)).toBe('0:04');
    expect(clock(61.5)).toBe('1:01.5');
    expect(sourcesSummary([{ state: 'success' }, { state: 'failed' }, { state: 'success' }])).toMatchObject({ total: 3, success: 2, failed: 1 });
  });

  it('has the same texts in zh-CN and English', () => {
    expect(keys(en).sort()).toEqual(keys(zhCN).sort());
  });
});
