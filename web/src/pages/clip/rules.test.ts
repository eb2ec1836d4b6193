import { describe, expect, it } from 'vitest';
import type { Project } from '@/api/clip/types';
import {
  capacityOf,
  charCount,
  emptyForm,
  groupsProblem,
  isColor,
  isSmallPool,
  maxBatch,
  moveRow,
  poolOf,
  toConfig,
  toForm,
  toHexColor,
} from './rules';

describe('quick-mix project rules (SPEC §5 Voice and clip)', () => {
  it('needs at least three shot groups, each once, max seconds whole and ≥ 0', () => {
    expect(groupsProblem(undefined)).toBe('tooFew');
    expect(groupsProblem([{ group_id: 1 }, { group_id: 2 }])).toBe('tooFew');
    expect(groupsProblem([{ group_id: 1 }, { group_id: 2 }, { group_id: 3 }])).toBeNull();
    expect(groupsProblem([{ group_id: 1 }, { group_id: 2 }, { group_id: 1 }])).toBe('repeated');
    expect(groupsProblem([{ group_id: 1 }, { group_id: 2 }, { group_id: 3, max_s: -1 }])).toBe('badMax');
    expect(groupsProblem([{ group_id: 1 }, { group_id: 2 }, { group_id: 3, max_s: 1.5 }])).toBe('badMax');
    expect(groupsProblem([{ group_id: 1, max_s: null }, { group_id: 2, max_s: 0 }, { group_id: 3, max_s: 3 }])).toBeNull();
  });

  it('counts title characters as the server does (20 at most; an emoji is one)', () => {
    expect(charCount('春季上新')).toBe(4);
    expect(charCount('🎉新品')).toBe(3);
    expect(charCount('')).toBe(0);
    expect(charCount(undefined)).toBe(0);
    expect(charCount('一二三四五六七八九十一二三四五六七八九十')).toBe(20);
  });

  it('accepts colours as #RRGGBB only, and normalizes what the picker hands over', () => {
    expect(isColor('#FFD700')).toBe(true);
    expect(isColor('#ffd700')).toBe(true);
    for (const bad of ['FFD700', '#FFF', '#FFD7000', 'red', '#GGGGGG', '', null, 12]) expect(isColor(bad), String(bad)).toBe(false);
    expect(toHexColor('#ffd700')).toBe('#FFD700');
    expect(toHexColor('#abc')).toBe('#AABBCC');
    expect(toHexColor('#112233ff')).toBe('#112233');
    expect(toHexColor({ toHexString: () => '#00ff00' })).toBe('#00FF00');
    expect(isColor(toHexColor('red'))).toBe(false);
  });

  it('capacity is the product of the ready counts; fewer than 80 ready clips is a small pool', () => {
    expect(capacityOf([2, 2, 2])).toBe(8);
    expect(capacityOf([5, 0, 4])).toBe(0);
    expect(capacityOf([])).toBe(0);
    expect(poolOf([2, 2, 2])).toBe(6);
    expect(isSmallPool([2, 2, 2])).toBe(true);
    expect(isSmallPool([30, 30, 20])).toBe(false);
    expect(maxBatch(8)).toBe(8);
    expect(maxBatch(10_000)).toBe(200);
  });

  it('moves rows for drag and drop and the arrows', () => {
    expect(moveRow([1, 2, 3], 0, 2)).toEqual([2, 3, 1]);
    expect(moveRow([1, 2, 3], 2, 0)).toEqual([3, 1, 2]);
    expect(moveRow([1, 2, 3], 1, 1)).toEqual([1, 2, 3]);
    expect(moveRow([1, 2, 3], 0, 5)).toEqual([1, 2, 3]);
  });

  it('maps form values to the config and back', () => {
    const values = {
      ...emptyForm(),
      name: 'Spring',
      groups: [{ group_id: 12, max_s: null }, { group_id: 13, max_s: 3 }, { group_id: 14, max_s: 0 }],
      music: { source: 'builtin' as const, media_id: 40, system_music_id: 3, volume: 60 },
      voice: { media_id: 41, volume: 90 },
      subtitles: { enabled: true, style: { font_id: null, size: 56, color: '#ffffff', position: 'bottom' as const } },
      title: { text: '  春季上新 ', style: { font_id: 50, size: 72, color: '#FFD700', position: 'top' as const } },
      cover_s: 1.5,
      output_count: 5,
    };
    const config = toConfig(values);
    expect(config).toEqual({
      groups: [
        { group_id: 12, max_ms: 0 },
        { group_id: 13, max_ms: 3000 },
        { group_id: 14, max_ms: 0 },
      ],
      music: { system_music_id: 3, volume: 60 },
      voice: { media_id: 41, volume: 90 },
      subtitles: { enabled: true, style: { font_id: null, size: 56, color: '#FFFFFF', position: 'bottom' } },
      title: { text: '春季上新', style: { font_id: 50, size: 72, color: '#FFD700', position: 'top' } },
      cover_ms: 1500,
      output_count: 5,
    });
    // no music, no voice, no title: those parts are left out
    const bare = toConfig({ ...emptyForm(), groups: values.groups });
    expect(bare.music).toBeUndefined();
    expect(bare.voice).toBeUndefined();
    expect(bare.title).toBeUndefined();

    const back = toForm({ name: 'Spring', config } as Project);
    expect(back.groups).toEqual([
      { group_id: 12, max_s: null },
      { group_id: 13, max_s: 3 },
      { group_id: 14, max_s: null },
    ]);
    expect(back.music).toEqual({ source: 'builtin', media_id: null, system_music_id: 3, volume: 60 });
    expect(back.title.text).toBe('春季上新');
    expect(back.cover_s).toBe(1.5);
    expect(toConfig(back)).toEqual(config);
  });
});
