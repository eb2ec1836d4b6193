import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Activity, Coupon, Draw } from '@/api/activities/types';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import EventsPage from '.';

// 2026-11-23 10:00 China time
const NOW = Date.UTC(2026, 10, 23, 2);
/** A wait for what the activity form checks on submit (see the add-form test). */
const SLOW = 20_000;

const activity = (id: number, over: Partial<Activity> = {}): Activity => ({
  id,
  name: `Spring ${id}`,
  starts_at: Date.UTC(2026, 10, 20, 16), // 2026-11-21 00:00 China time
  ends_at: Date.UTC(2026, 11, 21, 15, 59), // 2026-12-21 23:59 China time
  who: 'anyone',
  per_person: 3,
  per_day: 1,
  color: '#E53935',
  rules_text: 'One coupon per table',
  prizes: [
    { id: 11, name: '20 off', kind: 'coupon', odds: 10, stock: 100, issued: 3, per_person: 1, per_day: 1, description: 'over 100', valid_days: 30 },
    { id: 12, name: 'Try again', kind: 'thanks', odds: 20, stock: 0, issued: 0, per_person: 0, per_day: 0, description: '', valid_days: 0 },
  ],
  state: 'running',
  public_url: `http://shop.test/t/a/key${id}`,
  draws: 40,
  wins: 4,
  redeemed: 1,
  created_at: Date.UTC(2026, 10, 20, 8),
  ...over,
});

const coupon = (code: string, over: Partial<Coupon> = {}): Coupon => ({
  id: 1,
  code,
  activity_id: 1,
  activity_name: 'Spring 1',
  prize_name: '20 off',
  description: 'over 100',
  person: 'D-3f9a12c0',
  state: 'issued',
  issued_at: Date.UTC(2026, 10, 22, 4),
  expires_at: Date.UTC(2026, 11, 22, 4),
  redeemed_at: 0,
  redeemed_by: '',
  ...over,
});

const draw: Draw = {
  id: 5,
  activity_id: 1,
  activity_name: 'Spring 1',
  person: 'D-3f9a12c0',
  source: 'nfc',
  tag_name: 'Table 1',
  won: true,
  prize_name: '20 off',
  coupon_code: 'AB12CD34',
  created_at: Date.UTC(2026, 10, 22, 4),
};

let calls: { method: string; path: string; query: URLSearchParams; body: Record<string, unknown> }[];
let feedback: ReturnType<typeof spyFeedback>;
let answer: (path: string, body: Record<string, unknown>) => Response | undefined;
let saved: string[];

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});
afterAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(NOW);
  calls = [];
  saved = [];
  answer = () => undefined;
  feedback = spyFeedback();
  vi.stubGlobal('URL', Object.assign(URL, { createObjectURL: vi.fn(() => 'blob:x'), revokeObjectURL: vi.fn() }));
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    if (this.download) saved.push(this.download);
  });
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : {};
    calls.push({ method: init.method ?? 'GET', path, query: url.searchParams, body });
    const custom = answer(path, body);
    if (custom) return custom;
    if (path === '/task.merchant_forward_task_activities/index') return ok({ rows: [activity(1), activity(2, { state: 'ended', prizes: [{ ...activity(2).prizes[0], issued: 100 }] })], total: 2 });
    if (path === '/task.merchant_forward_task_activities/add' || path === '/task.merchant_forward_task_activities/edit') return ok(activity(3));
    if (path === '/task.merchant_forward_task_activities/coupons') return ok({ rows: [coupon('AB12CD34'), coupon('ZZ99', { id: 2, state: 'redeemed', redeemed_at: NOW, redeemed_by: 'Ann' })], total: 2 });
    if (path === '/task.merchant_forward_task/get_task_luck_draw_log') return ok({ rows: [draw, { ...draw, id: 6, won: false, prize_name: '', coupon_code: '', source: 'page', tag_name: '' }], total: 2 });
    if (path.includes('/export_')) return new Response('x', { status: 200, headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="export.csv"' } });
    return ok({});
  });
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  setFeedback(null);
});

const posted = (path: string) => calls.filter((c) => c.path === `/task.merchant_forward_task_activities/${path}`);

describe('/Events', { timeout: 60_000 }, () => {
  it('lists the activities: window in China time, state, the coupon prizes issued/stock, the figures', async () => {
    renderPage(<EventsPage />, { route: '/Events' });
    expect(await screen.findByTestId('activities-row-1')).toBeInTheDocument();
    expect(screen.getByTestId('activities-row-2')).toBeInTheDocument();
    expect(screen.getByTestId('activity-window-1')).toHaveTextContent('2026-11-21 00:00:00~ 2026-12-21 23:59:00');
    expect(screen.getByTestId('activity-state-1')).toHaveTextContent('Running');
    expect(screen.getByTestId('activity-state-2')).toHaveTextContent('Ended');
    expect(screen.getByTestId('activity-prizes-1')).toHaveTextContent('20 off 3/100');
    // the thanks prize has no stock to show
    expect(screen.getByTestId('activity-prizes-1')).not.toHaveTextContent('Try again');
    expect(screen.getByTestId('activity-figures-1')).toHaveTextContent('40 / 4 / 1');

    fireEvent.click(screen.getByTestId('activity-public-1'));
    expect(await screen.findByTestId('activity-link-1')).toHaveAttribute('href', 'http://shop.test/t/a/key1');
    expect(screen.getByTestId('activity-qr-1')).toBeInTheDocument();
  });

  it('the add form refuses odds over 100 (one prize, and all together), then sends the contract body', async () => {
    renderPage(<EventsPage />, { route: '/Events' });
    fireEvent.click(await screen.findByTestId('activity-add'));
    fireEvent.change(await screen.findByTestId('activity-form-name'), { target: { value: ' Spring week ' } });
    // the window starts as today to 30 days on, in China time (the test ids the e2e story uses are there)
    expect(screen.getByTestId('activity-form')).toBeInTheDocument();
    const range = within(screen.getByTestId('activity-form-range')).getAllByRole('textbox') as HTMLInputElement[];
    expect(range.map((i) => i.value)).toEqual(['2026-11-23 00:00', '2026-12-23 23:59']);
    fireEvent.change(screen.getByTestId('prize-name-0'), { target: { value: '20 off' } });
    fireEvent.change(screen.getByTestId('prize-odds-0'), { target: { value: '120' } });
    fireEvent.click(screen.getByTestId('activity-form-ok'));
    // The form checks a dozen fields and the prize table before it answers: on a loaded machine
    // (the three suites side by side) that takes longer than the default wait.
    expect(await screen.findByText('Odds are between 0.01% and 100%', {}, { timeout: SLOW })).toBeInTheDocument();
    expect(screen.getByTestId('prizes-thanks')).toHaveTextContent('The odds add up to 120%, more than 100%');

    fireEvent.change(screen.getByTestId('prize-odds-0'), { target: { value: '60' } });
    fireEvent.click(screen.getByTestId('prize-add'));
    fireEvent.change(await screen.findByTestId('prize-name-1'), { target: { value: 'Free drink' } });
    fireEvent.change(screen.getByTestId('prize-odds-1'), { target: { value: '50' } });
    // the total follows the typed odds before the form is sent (under load the list renders late)
    await waitFor(() => expect(screen.getByTestId('prizes-thanks')).toHaveAttribute('data-total', '110'), { timeout: SLOW });
    fireEvent.click(screen.getByTestId('activity-form-ok'));
    await waitFor(() => expect(within(screen.getByTestId('prizes-errors')).getByText('The odds of all prizes together cannot exceed 100% (now 110%)')).toBeInTheDocument(), {
      timeout: SLOW,
    });
    expect(posted('add')).toHaveLength(0);

    fireEvent.change(screen.getByTestId('prize-odds-1'), { target: { value: '15.5' } });
    await waitFor(() => expect(screen.getByTestId('prizes-thanks')).toHaveTextContent('Thanks for taking part 24.5% (prizes 75.5%)'), { timeout: SLOW });
    await waitFor(() => expect(screen.queryByText('The odds of all prizes together cannot exceed 100% (now 110%)')).toBeNull(), { timeout: SLOW });
    fireEvent.change(screen.getByTestId('prize-stock-1'), { target: { value: '50' } });
    fireEvent.click(screen.getByTestId('activity-form-ok'));
    await waitFor(() => expect(posted('add')).toHaveLength(1), { timeout: SLOW });
    expect(posted('add')[0].body).toEqual({
      name: 'Spring week',
      // today 00:00 to 30 days on 23:59:59, China time
      starts_at: Date.UTC(2026, 10, 22, 16),
      ends_at: Date.UTC(2026, 11, 23, 15, 59, 59),
      who: 'anyone',
      per_person: 3,
      per_day: 1,
      color: '#E53935',
      rules_text: '',
      prizes: [
        { name: '20 off', kind: 'coupon', odds: 60, stock: 100, per_person: 1, per_day: 1, description: '', valid_days: 30 },
        { name: 'Free drink', kind: 'coupon', odds: 15.5, stock: 50, per_person: 1, per_day: 1, description: '', valid_days: 30 },
      ],
    });
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Saved successfully'));
  });

  it('an edit keeps the prize ids, and a server 422 on the prizes lands under the list', async () => {
    answer = (path) =>
      path.endsWith('/edit') ? json({ code: 422, message: 'A prize that issued coupons cannot be removed', data: { field: 'prizes' } }, 422) : undefined;
    renderPage(<EventsPage />, { route: '/Events' });
    fireEvent.click(await screen.findByTestId('activity-edit-1'));
    expect(await screen.findByTestId('activity-form-name')).toHaveValue('Spring 1');
    // a prize that issued coupons cannot be removed here either
    await waitFor(() => expect(screen.getByTestId('prize-remove-0')).toBeDisabled());
    expect(screen.getByTestId('prize-remove-1')).toBeEnabled();
    expect(screen.getByTestId('prize-stock-1')).toBeDisabled();
    fireEvent.click(screen.getByTestId('activity-form-ok'));
    await waitFor(() => expect(posted('edit')).toHaveLength(1));
    expect(posted('edit')[0].body).toMatchObject({
      id: 1,
      starts_at: Date.UTC(2026, 10, 20, 16),
      prizes: [
        { id: 11, name: '20 off', odds: 10, stock: 100 },
        { id: 12, name: 'Try again', kind: 'thanks', stock: 0, per_person: 0, per_day: 0, valid_days: 0 },
      ],
    });
    expect(await within(screen.getByTestId('prizes-errors')).findByText('A prize that issued coupons cannot be removed')).toBeInTheDocument();
    expect(feedback.error).not.toHaveBeenCalled();
  });

  it("the redeem box shows the server's 422 under the code, and the redeemed coupon's prize and person", async () => {
    renderPage(<EventsPage />, { route: '/Events' });
    fireEvent.click(await screen.findByTestId('tab-coupons'));
    expect(await screen.findByTestId('coupon-state-AB12CD34')).toHaveTextContent('Issued');
    expect(screen.getByTestId('coupon-state-ZZ99')).toHaveTextContent('Redeemed');

    answer = (path) =>
      path.endsWith('/redeem') ? json({ code: 422, message: 'Coupon ZZ99 was already redeemed at 2026-11-23 10:00 by Ann', data: { field: 'code' } }, 422) : undefined;
    fireEvent.change(screen.getByTestId('redeem-code'), { target: { value: ' ZZ99 ' } });
    fireEvent.click(screen.getByTestId('redeem-submit'));
    expect(await within(screen.getByTestId('redeem-box')).findByText('Coupon ZZ99 was already redeemed at 2026-11-23 10:00 by Ann')).toBeInTheDocument();
    expect(posted('redeem')[0].body).toEqual({ code: 'ZZ99' });
    expect(feedback.error).not.toHaveBeenCalled();

    answer = (path) => (path.endsWith('/redeem') ? ok(coupon('AB12CD34', { state: 'redeemed', redeemed_at: NOW, redeemed_by: 'Ann' })) : undefined);
    fireEvent.change(screen.getByTestId('redeem-code'), { target: { value: 'AB12CD34' } });
    await waitFor(() => expect(screen.queryByText('Coupon ZZ99 was already redeemed at 2026-11-23 10:00 by Ann')).toBeNull());
    fireEvent.click(screen.getByTestId('redeem-submit'));
    expect(await screen.findByTestId('redeem-result')).toHaveTextContent('Redeemed AB12CD34');
    expect(screen.getByTestId('redeem-result-detail')).toHaveTextContent('Prize: 20 off · customer: D-3f9a12c0 · activity: Spring 1');
    expect(screen.getByTestId('redeem-code')).toHaveValue('');
  });

  it('a code sent again while its redeem is on the way (a scanner\'s Enter, then Enter again) is redeemed once: one answer, no "already redeemed" beside it', async () => {
    renderPage(<EventsPage />, { route: '/Events' });
    fireEvent.click(await screen.findByTestId('tab-coupons'));
    expect(await screen.findByTestId('coupon-state-AB12CD34')).toHaveTextContent('Issued');
    let redeemed = false;
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    answer = (path) => {
      if (!path.endsWith('/redeem')) return undefined;
      if (redeemed) return json({ code: 422, message: 'Coupon AB12CD34 was already redeemed at 2026-11-23 10:00 by Ann', data: { field: 'code' } }, 422);
      redeemed = true;
      // the first answer takes a while
      return held.then(() => ok(coupon('AB12CD34', { state: 'redeemed', redeemed_at: NOW, redeemed_by: 'Ann' }))) as unknown as Response;
    };
    fireEvent.change(screen.getByTestId('redeem-code'), { target: { value: 'AB12CD34' } });
    // Enter in the field submits the form whatever the button shows
    const form = screen.getByTestId('redeem-code').closest('form')!;
    fireEvent.submit(form);
    await waitFor(() => expect(posted('redeem')).toHaveLength(1));
    fireEvent.submit(form);
    await new Promise((r) => setTimeout(r, 100));
    release();
    expect(await screen.findByTestId('redeem-result')).toHaveTextContent('Redeemed AB12CD34');
    await waitFor(() => expect(feedback.success).toHaveBeenCalledTimes(1));
    expect(posted('redeem')).toHaveLength(1);
    expect(screen.queryByText('Coupon AB12CD34 was already redeemed at 2026-11-23 10:00 by Ann')).toBeNull();
  });

  it('the draw log lists the draws and exports them with the chosen activity', async () => {
    renderPage(<EventsPage />, { route: '/Events?tab=draws' });
    expect(await screen.findByTestId('draw-result-5')).toHaveTextContent('Won: 20 off');
    expect(screen.getByTestId('draw-result-6')).toHaveTextContent('No prize');
    fireEvent.mouseDown(within(screen.getByTestId('draws-activity')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('Spring 2'));
    await waitFor(() => expect(calls.some((c) => c.path === '/task.merchant_forward_task/get_task_luck_draw_log' && c.body.activity_id === 2)).toBe(true));
    fireEvent.click(screen.getByTestId('export-xlsx'));
    await waitFor(() => expect(saved).toEqual(['export.csv']));
    const exp = calls.find((c) => c.path.endsWith('/export_draws'))!;
    expect(exp.method).toBe('GET');
    expect(exp.query.get('format')).toBe('xlsx');
    expect(exp.query.get('activity_id')).toBe('2');

    fireEvent.click(screen.getByTestId('tab-coupons'));
    const search = within(await screen.findByTestId('coupons-search')).getByRole('searchbox');
    fireEvent.change(search, { target: { value: 'AB12' } });
    fireEvent.keyDown(search, { key: 'Enter', code: 'Enter', keyCode: 13 });
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/coupons') && c.body.code === 'AB12')).toBe(true));
    // a coupon's state depends on the clock: a plain parameter, not a drawer filter
    fireEvent.mouseDown(within(screen.getByTestId('coupons-state')).getByRole('combobox'));
    fireEvent.click(await screen.findByTitle('Redeemed'));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/coupons') && c.body.state === 'redeemed' && c.body.code === 'AB12')).toBe(true));
    fireEvent.click(screen.getByTestId('export-csv'));
    await waitFor(() => expect(calls.some((c) => c.path.endsWith('/export_coupons'))).toBe(true));
    const coupons = calls.find((c) => c.path.endsWith('/export_coupons'))!;
    expect([coupons.query.get('format'), coupons.query.get('code'), coupons.query.get('state'), coupons.query.get('activity_id')]).toEqual(['csv', 'AB12', 'redeemed', null]);
  });

  it('speaks Chinese by default and English after the language switch', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<EventsPage />, { route: '/Events' });
    expect(await screen.findByTestId('tab-draws')).toHaveTextContent('抽奖记录');
    expect(screen.getByTestId('tab-coupons')).toHaveTextContent('优惠券核销');
    expect(await screen.findByTestId('activity-state-1')).toHaveTextContent('进行中');
    expect(screen.getByTestId('page-title')).toHaveTextContent('抽奖活动');
    await act(async () => {
      await i18n.changeLanguage('en');
    });
    expect(screen.getByTestId('tab-draws')).toHaveTextContent('Draw log');
    expect(screen.getByTestId('tab-coupons')).toHaveTextContent('Coupons');
    expect(screen.getByTestId('page-title')).toHaveTextContent('Lottery activities');
    await waitFor(() => expect(screen.getByTestId('activity-state-1')).toHaveTextContent('Running'));
  });
});
