import dayjs from 'dayjs';
import { describe, expect, it } from 'vitest';
import {
  consoleDeclaration,
  resolveDeclaration,
  appendTitles,
  capacity,
  checkTitles,
  commentLines,
  commentProblems,
  contactKind,
  countProblem,
  emptyTaskForm,
  formFieldOf,
  isOverdue,
  needsPolling,
  splitTitles,
  splitVideoKeys,
  stepOf,
  timesNeeded,
  timesProblem,
  toTaskReq,
} from './rules';

describe('titles (SPEC §5: separated by #, each at most 50 characters, required)', () => {
  it('splits on #, trims and drops empty pieces', () => {
    expect(splitTitles(' one # two##three# ')).toEqual(['one', 'two', 'three']);
    expect(splitTitles('')).toEqual([]);
    expect(splitTitles('#')).toEqual([]);
  });
  it('counts each title in characters (code points) against 50', () => {
    const fifty = '字'.repeat(50);
    const checks = checkTitles(`${fifty}#${fifty}多#😀ok`);
    expect(checks.map((c) => [c.index, c.length, c.tooLong])).toEqual([
      [1, 50, false],
      [2, 51, true],
      [3, 3, false],
    ]);
  });
  it('appends random titles without repeating or carrying a #', () => {
    expect(appendTitles('a#b', ['b', 'c#d', ' '])).toBe('a#b#cd');
    expect(appendTitles('', ['x'])).toBe('x');
  });
});

describe('top comments (one per line, ≤ 30 characters, no contact details or links)', () => {
  it('reads one comment per non-blank line', () => {
    expect(commentLines('a\n\n  b  \r\nc')).toEqual(['a', 'b', 'c']);
  });
  it('names the line of each problem as typed', () => {
    const text = ['好看', '', 'x'.repeat(31), '加微信 abc_12345 领券', '电话 138 0013 8000', 'see https://shop.example.com', 'QQ: 12345678', '三十个字以内'.padEnd(30, '啊')].join('\n');
    expect(commentProblems(text).map((p) => [p.line, p.kind])).toEqual([
      [3, 'tooLong'],
      [4, 'wechat'],
      [5, 'phone'],
      [6, 'url'],
      [7, 'qq'],
    ]);
  });
  it('detects contact details and links', () => {
    expect(contactKind('call 13800138000 now')).toBe('phone');
    expect(contactKind('+86 139-1234-5678')).toBe('phone');
    expect(contactKind('座机 010-12345678')).toBe('phone');
    expect(contactKind('vx: shop_owner88')).toBe('wechat');
    expect(contactKind('微信号：Abc123456')).toBe('wechat');
    expect(contactKind('扣扣 987654321')).toBe('qq');
    expect(contactKind('www.example.cn')).toBe('url');
    expect(contactKind('visit example.com today')).toBe('url');
    expect(contactKind('http://a.b/c')).toBe('url');
    expect(contactKind('买二送一，限时 3 天')).toBeNull();
    expect(contactKind('2025 新款，销量 100000+')).toBeNull();
    expect(contactKind('Great price, 99 yuan only')).toBeNull();
  });
});

describe('accounts, videos and the schedule', () => {
  it('accounts ≤ videos; publish count ≤ selected videos', () => {
    expect(countProblem(0, 3)).toBe('noAccounts');
    expect(countProblem(2, 0)).toBe('noVideos');
    expect(countProblem(3, 2)).toBe('accountsOverVideos');
    expect(countProblem(2, 2)).toBeNull();
    expect(countProblem(2, 5, 6)).toBe('publishOverVideos');
    expect(countProblem(2, 5, 5)).toBeNull();
  });
  it('capacity is accounts × daily quantity × days', () => {
    expect(capacity(4, 3, 7)).toBe(84);
    expect(capacity(0, 3, 7)).toBe(0);
  });
  it('specified needs one time per daily slot, timed exactly one, random none; times must differ', () => {
    expect(timesNeeded('specified', 3)).toBe(3);
    expect(timesNeeded('timed', 3)).toBe(1);
    expect(timesNeeded('random', 3)).toBe(0);
    expect(timesProblem('specified', 2, ['09:00'])).toBe('missing');
    expect(timesProblem('specified', 2, ['09:00', '09:00'])).toBe('repeated');
    expect(timesProblem('specified', 2, ['09:00', '12:00'])).toBeNull();
    expect(timesProblem('timed', 3, ['20:00'])).toBeNull();
    expect(timesProblem('random', 3, [])).toBeNull();
  });
});

describe('the request', () => {
  it('maps the form to exactly the contract TaskReq', () => {
    const v = {
      ...emptyTaskForm(dayjs('2025-03-01')),
      name: ' Spring ',
      platform: 'dy' as const,
      account_ids: [3, 4],
      video_keys: ['v:10', 'm:7', 'v:11'],
      titles: 'one# two #',
      topics: ['#spring', 'sale'],
      top_comments: 'nice\n\n great ',
      at_users: ['brand'],
      mount_type: 'poi' as const,
      declaration: 'ai_generated' as const,
      province: 'Zhejiang',
      city: 'Hangzhou',
      merchant_abbr: 'HZ',
      poi_id: 'P1',
      poi_name: 'West Lake',
      poi_address: '1 Lake Rd',
      product_id: 'stale',
      time_mode: 'specified' as const,
      daily_quantity: 2,
      days: 5,
      times: [dayjs('2025-03-01 09:05'), dayjs('2025-03-01 18:30'), dayjs('2025-03-01 20:00')],
    };
    expect(toTaskReq(v)).toEqual({
      name: 'Spring',
      titles: 'one#two',
      topics: ['spring', 'sale'],
      top_comments: 'nice\ngreat',
      at_users: ['brand'],
      mount_type: 'poi',
      declaration: 'ai_generated',
      province: 'Zhejiang',
      city: 'Hangzhou',
      merchant_abbr: 'HZ',
      poi_id: 'P1',
      poi_name: 'West Lake',
      poi_address: '1 Lake Rd',
      mini_app_id: '',
      mini_app_title: '',
      mini_app_url: '',
      official_title: '',
      official_url: '',
      product_id: '',
      time_mode: 'specified',
      start_date: '2025-03-01',
      daily_quantity: 2,
      days: 5,
      times: ['09:05', '18:30'],
      account_ids: [3, 4],
      video_ids: [10, 11],
      material_ids: [7],
    });
    expect(toTaskReq({ ...v, publish_count: 2 }, true)).toMatchObject({ publish_count: 2, preview: true });
    expect(toTaskReq({ ...v, time_mode: 'random' }).times).toEqual([]);
  });
  it('splits video keys into library and uploaded ids', () => {
    expect(splitVideoKeys(['v:1', 'm:2', 'v:3', 'bad'])).toEqual({ video_ids: [1, 3], material_ids: [2] });
  });
  it('finds the form field and step a 422 names', () => {
    expect(formFieldOf('video_ids')).toBe('video_keys');
    expect(formFieldOf('material_ids')).toBe('video_keys');
    expect(formFieldOf('times[1]')).toBe('times');
    expect(stepOf('account_ids')).toBe(0);
    expect(stepOf('name')).toBe(0);
    expect(stepOf('video_ids')).toBe(1);
    expect(stepOf('top_comments')).toBe(2);
    expect(stepOf('poi_id')).toBe(2);
    expect(stepOf('daily_quantity')).toBe(3);
  });
});

describe('review and polling', () => {
  it('a review is overdue only while under review past its due time', () => {
    const now = 1_000_000;
    expect(isOverdue({ review_state: 'reviewing', review_due_at: now - 1 }, now)).toBe(true);
    expect(isOverdue({ review_state: 'reviewing', review_due_at: now + 1 }, now)).toBe(false);
    expect(isOverdue({ review_state: 'approved', review_due_at: now - 1 }, now)).toBe(false);
    expect(isOverdue({ review_state: 'reviewing', review_due_at: now + 1, overdue: true }, now)).toBe(true);
  });
  it('the detail polls while an item publishes or is due within minutes', () => {
    const now = 10_000_000;
    expect(needsPolling([{ state: 'publishing', scheduled_at: null }], now)).toBe(true);
    expect(needsPolling([{ state: 'to_release', scheduled_at: now + 60_000, review_state: 'approved' }], now)).toBe(true);
    expect(needsPolling([{ state: 'to_release', scheduled_at: now + 3_600_000, review_state: 'approved' }], now)).toBe(false);
    expect(needsPolling([{ state: 'to_release', scheduled_at: now + 60_000, review_state: 'reviewing' }], now)).toBe(false);
    expect(needsPolling([{ state: 'published', scheduled_at: now, review_state: 'approved' }], now)).toBe(false);
  });
});

describe('declarations follow the videos (issue 39)', () => {
  it('auto declares AI-generated for a generated video, original for own footage', () => {
    expect(resolveDeclaration('auto', true)).toBe('ai_generated');
    expect(resolveDeclaration('auto', false)).toBe('original');
    expect(resolveDeclaration('reposted', true)).toBe('reposted');
  });
  it("names each console's own label, or none for the open-API platforms", () => {
    expect(consoleDeclaration('xhs', 'ai_generated')).toBe('笔记含AI合成内容');
    expect(consoleDeclaration('sph', 'original')).toBe('内容为自行拍摄');
    expect(consoleDeclaration('shop', 'original')).toBeNull();
    expect(consoleDeclaration('dy', 'ai_generated')).toBeUndefined();
  });
});
