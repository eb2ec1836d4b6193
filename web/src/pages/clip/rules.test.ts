import { describe, expect, it } from 'vitest';
import type { Project } from '@/api/clip/types';
import {
  capacityOf,
  charCount,
  clearLastTransition,
  DEFAULT_SHOT_STYLE,
  DEFAULT_TITLE_STYLE,
  emptyForm,
  groupsProblem,
  hasBurnedText,
  hasShotTexts,
  isColor,
  isSmallPool,
  MAX_TITLES,
  maxBatch,
  moveRow,
  poolOf,
  shotProblem,
  shotsProblem,
  toConfig,
  toForm,
  toHexColor,
  titlesOf,
  tracksOf,
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
      music: { source: 'builtin' as const, media_ids: [40], system_music_id: 3, volume: 60 },
      voice: { media_ids: [41], volume: 90 },
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
    expect(back.music).toEqual({ source: 'builtin', media_ids: [], system_music_id: 3, volume: 60 });
    expect(back.title.text).toBe('春季上新');
    expect(back.cover_s).toBe(1.5);
    expect(back.cover_vary).toBe(false);
    expect(toConfig(back)).toEqual(config);
    // A cover per video (duplicate risk): sent only when on, read back.
    const varied = toConfig({ ...values, cover_vary: true });
    expect(varied.cover_vary).toBe(true);
    expect(toForm({ name: 'Spring', config: varied } as Project).cover_vary).toBe(true);
    // The other levers likewise: sent only when on, read back.
    const levers = toConfig({ ...values, trim_vary: true, text_vary: true });
    expect([levers.trim_vary, levers.text_vary, config.trim_vary, config.text_vary]).toEqual([true, true, undefined, undefined]);
    const leversBack = toForm({ name: 'Spring', config: levers } as Project);
    expect([leversBack.trim_vary, leversBack.text_vary]).toEqual([true, true]);
  });

  it('sends several titles as texts (blanks and repeats left out, the first as text) and reads them back', () => {
    const values = { ...emptyForm(), title: { text: ' 一 ', more: ['二', '', '一', '三'], style: { ...DEFAULT_TITLE_STYLE } } };
    const config = toConfig(values);
    expect(config.title).toEqual({ text: '一', texts: ['一', '二', '三'], style: DEFAULT_TITLE_STYLE });
    const back = toForm({ name: 'x', config } as Project);
    expect([back.title.text, back.title.more]).toEqual(['一', ['二', '三']]);
    // One title keeps the plain shape; a title only in the extra rows still counts.
    expect(toConfig({ ...values, title: { ...values.title, more: [] } }).title).toEqual({ text: '一', style: DEFAULT_TITLE_STYLE });
    expect(toConfig({ ...values, title: { ...values.title, text: '', more: ['二'] } }).title?.text).toBe('二');
    expect(titlesOf({ text: 'a', more: Array.from({ length: 20 }, (_, i) => `t${i}`) })).toHaveLength(MAX_TITLES);
    expect(hasBurnedText({ ...config, title: { text: '', texts: ['二'], style: DEFAULT_TITLE_STYLE } })).toBe(true);
  });

  it('sends several music or voice files as media_ids (at most 3) and reads both shapes back', () => {
    const groups = [{ group_id: 1 }, { group_id: 2 }, { group_id: 3 }];
    const config = toConfig({
      ...emptyForm(),
      groups,
      music: { source: 'mine', media_ids: [7, 8, 9, 10], system_music_id: null, volume: 40 },
      voice: { media_ids: [21, 22], volume: 100 },
    });
    expect(config.music).toEqual({ media_ids: [7, 8, 9], volume: 40 });
    expect(config.voice).toEqual({ media_ids: [21, 22], volume: 100 });
    const back = toForm({ name: 'P', config } as Project);
    expect(back.music.media_ids).toEqual([7, 8, 9]);
    expect(back.voice.media_ids).toEqual([21, 22]);
    // A project stored with one file ({media_id}) opens with that file chosen.
    expect(toForm({ name: 'P', config: { groups, voice: { media_id: 5, volume: 80 } } } as Project).voice).toEqual({ media_ids: [5], volume: 80 });
    expect(tracksOf({ media_id: 5, media_ids: [] })).toEqual([5]);
  });
});

describe('advanced mode: per-shot rules and mapping', () => {
  const three = (over: Record<number, object> = {}) => [11, 12, 13].map((id, i) => ({ group_id: id, max_s: null, ...(over[i] ?? {}) }));

  it('checks each shot: start ≥ 0, caption ≤ 30 characters, a known transition of 200–2000 ms, none on the last shot', () => {
    expect(shotsProblem(three())).toBeNull();
    expect(shotsProblem(undefined)).toBeNull();
    expect(shotProblem({ group_id: 1, start_s: -0.5 }, 0, 3)).toBe('badStart');
    expect(shotProblem({ group_id: 1, start_s: 0 }, 0, 3)).toBeNull();
    expect(shotProblem({ group_id: 1, text: '一'.repeat(30) }, 0, 3)).toBeNull();
    expect(shotProblem({ group_id: 1, text: '一'.repeat(31) }, 0, 3)).toBe('textTooLong');
    // counted as the server counts: code points, after trimming
    expect(shotProblem({ group_id: 1, text: `  ${'🎉'.repeat(30)}  ` }, 0, 3)).toBeNull();
    expect(shotProblem({ group_id: 1, transition: 'fade' }, 0, 3)).toBeNull(); // default 500 ms
    expect(shotProblem({ group_id: 1, transition: 'fade', transition_ms: 200 }, 1, 3)).toBeNull();
    expect(shotProblem({ group_id: 1, transition: 'fade', transition_ms: 2000 }, 1, 3)).toBeNull();
    expect(shotProblem({ group_id: 1, transition: 'fade', transition_ms: 199 }, 1, 3)).toBe('badTransitionMs');
    expect(shotProblem({ group_id: 1, transition: 'fade', transition_ms: 2001 }, 1, 3)).toBe('badTransitionMs');
    expect(shotProblem({ group_id: 1, transition: 'explode' as never }, 1, 3)).toBe('badTransition');
    expect(shotProblem({ group_id: 1, transition: 'fade' }, 2, 3)).toBe('lastTransition');
    expect(shotProblem({ group_id: 1, transition: null }, 2, 3)).toBeNull();
    expect(shotsProblem(three({ 2: { transition: 'dissolve' } }))).toEqual({ index: 2, problem: 'lastTransition' });
    expect(shotsProblem(three({ 1: { text: '字'.repeat(31) } }))).toEqual({ index: 1, problem: 'textTooLong' });
  });

  it('drops the transition of whichever shot ends up last', () => {
    const rows = three({ 0: { transition: 'fade', transition_ms: 800 }, 2: { transition: 'wipeleft', transition_ms: 500 } });
    const fixed = clearLastTransition(rows);
    expect(fixed[0]).toBe(rows[0]);
    expect(fixed[2].transition).toBeNull();
    expect(clearLastTransition([])).toEqual([]);
    expect(hasShotTexts(three())).toBe(false);
    expect(hasShotTexts(three({ 1: { text: '   ' } }))).toBe(false);
    expect(hasShotTexts(three({ 1: { text: '新品' } }))).toBe(true);
  });

  it('maps start, length, caption and transition to the config and back; the captions\' style only with a caption', () => {
    const values = {
      ...emptyForm(),
      name: 'Advanced',
      groups: [
        { group_id: 11, max_s: 3, start_s: 1.5, text: ' 第一镜 ', transition: 'fade' as const, transition_ms: 800 },
        { group_id: 12, max_s: null, start_s: null, text: '', transition: 'slideleft' as const, transition_ms: null },
        { group_id: 13, max_s: 0, start_s: 0, text: '结尾', transition: null, transition_ms: null },
      ],
      shot_style: { font_id: 50, size: 80, color: '#ff0000', position: 'top' as const },
    };
    const config = toConfig(values);
    expect(config.groups).toEqual([
      { group_id: 11, max_ms: 3000, in_ms: 1500, text: '第一镜', transition: { kind: 'fade', ms: 800 } },
      { group_id: 12, max_ms: 0, transition: { kind: 'slideleft', ms: 500 } },
      { group_id: 13, max_ms: 0, text: '结尾' },
    ]);
    expect(config.shot_style).toEqual({ font_id: 50, size: 80, color: '#FF0000', position: 'top' });

    const back = toForm({ name: 'Advanced', config } as Project);
    expect(back.groups).toEqual([
      { group_id: 11, max_s: 3, start_s: 1.5, text: '第一镜', transition: 'fade', transition_ms: 800 },
      { group_id: 12, max_s: null, transition: 'slideleft', transition_ms: 500 },
      { group_id: 13, max_s: null, text: '结尾' },
    ]);
    expect(back.shot_style).toEqual(config.shot_style);
    expect(toConfig(back)).toEqual(config);

    // no caption: no shot_style; a transition left on the last shot is not sent
    const plain = toConfig({ ...values, groups: values.groups.map((g) => ({ ...g, text: '' })).map((g, i) => (i === 2 ? { ...g, transition: 'fade' as const } : g)) });
    expect(plain.shot_style).toBeUndefined();
    expect(plain.groups[2]).toEqual({ group_id: 13, max_ms: 0 });
    // an old project without shot_style gets the default style in the form
    expect(toForm({ name: 'x', config: { ...config, shot_style: undefined } } as Project).shot_style).toEqual(DEFAULT_SHOT_STYLE);
  });

  it('leaves a quick-mix config as it was (no advanced fields, no shot_style)', () => {
    const config = toConfig({ ...emptyForm(), groups: [{ group_id: 1, max_s: 2 }, { group_id: 2 }, { group_id: 3, max_s: null }] });
    expect(config.groups).toEqual([
      { group_id: 1, max_ms: 2000 },
      { group_id: 2, max_ms: 0 },
      { group_id: 3, max_ms: 0 },
    ]);
    expect('shot_style' in config).toBe(false);
  });
});

describe('burned text (what fixed slots speed up)', () => {
  const base = { groups: [{ group_id: 1 }, { group_id: 2 }, { group_id: 3 }], subtitles: { enabled: true, style: DEFAULT_SHOT_STYLE }, cover_ms: 0, output_count: 1 };
  it('counts subtitles of a voice-over, a title and a shot caption; not subtitles without a voice', () => {
    expect(hasBurnedText(base)).toBe(false);
    expect(hasBurnedText({ ...base, voice: { media_ids: [7], volume: 100 } })).toBe(true);
    expect(hasBurnedText({ ...base, subtitles: { ...base.subtitles, enabled: false }, voice: { media_id: 7, volume: 100 } })).toBe(false);
    expect(hasBurnedText({ ...base, title: { text: '  ', style: DEFAULT_SHOT_STYLE } })).toBe(false);
    expect(hasBurnedText({ ...base, title: { text: '春季上新', style: DEFAULT_SHOT_STYLE } })).toBe(true);
    expect(hasBurnedText({ ...base, groups: [...base.groups, { group_id: 4, text: '招牌' }] })).toBe(true);
  });
});
