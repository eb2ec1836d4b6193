import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import SystemLogPage from '../log';
import TasksPage from '../tasks';
import { merchantFilter } from './MerchantPicker';

const merchants = [
  { id: 1, name: 'Demo Co', username: 'demo' },
  { id: 3, name: 'Acme', username: 'acme' },
];

let urls: URL[];

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  urls = [];
  mockFetch((url) => {
    urls.push(url);
    if (url.pathname === '/api/system/merchant/index') {
      const filter = url.searchParams.get('filterObj');
      const name = filter ? (JSON.parse(filter).name as string).split('|')[0].toLowerCase() : '';
      const rows = merchants.filter((m) => m.name.toLowerCase().includes(name));
      return ok({ rows, total: rows.length });
    }
    return ok({ rows: [], total: 0 });
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

const filterOf = (path: string) =>
  urls
    .filter((u) => u.pathname === path)
    .map((u) => u.searchParams.get('filterObj'))
    .map((f) => (f ? JSON.parse(f) : null));

async function pick(testId: string, search: string, id: number) {
  fireEvent.mouseDown(within(await screen.findByTestId(testId)).getByRole('combobox'));
  const popup = await screen.findByTestId(`${testId}-popup`);
  await within(popup).findByText('Demo Co');
  const box = screen.getByTestId(`${testId}-search`);
  fireEvent.change(box.querySelector('input') ?? box, { target: { value: search } });
  await waitFor(() => expect(within(popup).queryByText('Demo Co')).toBeNull(), { timeout: 10_000 });
  // the search went out as the list engine's filterObj on the merchant list
  expect(filterOf('/api/system/merchant/index').at(-1)).toEqual({ name: `${search}|include` });
  const merchantCall = urls.filter((u) => u.pathname === '/api/system/merchant/index').at(-1)!;
  expect(merchantCall.searchParams.get('pageSize')).toBe('20');
  fireEvent.click(screen.getByTestId(`${testId}-row-${id}`));
}

// whole pages render here: slow on a busy machine
describe('merchant picker (TableSelect) on the operator lists', { timeout: 60_000 }, () => {
  it('builds the filterObj entry of each list', () => {
    expect(merchantFilter(merchants[1], 'merchant_name')).toEqual({ merchant_name: 'Acme|=' });
    expect(merchantFilter(merchants[1], 'merchant_id')).toEqual({ merchant_id: '3|=' });
    expect(merchantFilter(undefined, 'merchant_id')).toEqual({});
  });

  it('/system/log filters by merchant_name', async () => {
    renderPage(<SystemLogPage />, { route: '/system/log', path: '/system/log' });
    await pick('system-log-merchant', 'acm', 3);
    await waitFor(() => expect(filterOf('/api/system/log/index').at(-1)).toEqual({ merchant_name: 'Acme|=' }));
    expect(screen.getByTestId('system-log-merchant')).toHaveTextContent('Acme');
  });

  it('/system/tasks filters by merchant_id', async () => {
    renderPage(<TasksPage />, { route: '/system/tasks', path: '/system/tasks' });
    await pick('tasks-merchant', 'acme', 3);
    await waitFor(() => expect(filterOf('/api/system/tasks/index').at(-1)).toEqual({ merchant_id: '3|=' }));
  });
});
