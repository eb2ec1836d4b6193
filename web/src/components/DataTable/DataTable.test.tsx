import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { useWrite } from '@/api/mutations';
import { request } from '@/api/request';
import DataTable, { SummaryRow } from '.';
import { FLEX_MIN, headerWidth, widthSum } from './headerFit';

interface Row {
  id: number;
  name: string;
}

const columns = [
  { title: 'ID', dataIndex: 'id', sorter: true },
  { title: 'Name', dataIndex: 'name' },
];

let feedback: ReturnType<typeof spyFeedback>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});

beforeEach(() => {
  feedback = spyFeedback();
});

afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

function renderTable(extra: Partial<Parameters<typeof DataTable<Row>>[0]> = {}) {
  return renderPage(<DataTable<Row> id="t" api="/things/index" columns={columns} {...extra} />, { route: "/table", path: "/table" });
}

describe('DataTable empty area (SPEC §8)', () => {
  it("empty success: 'no data'", async () => {
    mockFetch(() => ok({ rows: [], total: 0 }));
    renderTable();
    await waitFor(() => expect(screen.getByTestId('t-empty')).toHaveTextContent('no data'));
    expect(screen.getByTestId('t-total')).toHaveTextContent('Total 0');
  });

  it('HTTP failure: the HTTP status text', async () => {
    mockFetch(() => json({ code: 403, message: 'no permission' }, 403, 'Forbidden'));
    renderTable();
    await waitFor(() => expect(screen.getByTestId('t-empty')).toHaveTextContent('Forbidden'));
    expect(feedback.error).toHaveBeenCalledWith('no permission');
  });

  it('HTTP failure without a status text uses the standard reason phrase', async () => {
    mockFetch(() => new Response('', { status: 502 }));
    renderTable();
    await waitFor(() => expect(screen.getByTestId('t-empty')).toHaveTextContent('Bad Gateway'));
  });

  it('code other than 200: the server message', async () => {
    mockFetch(() => json({ code: 1002, message: 'list unavailable', data: null }));
    renderTable();
    await waitFor(() => expect(screen.getByTestId('t-empty')).toHaveTextContent('list unavailable'));
  });

  it("unparseable answer: 'data format error'", async () => {
    mockFetch(() => new Response('not json', { status: 200 }));
    renderTable();
    await waitFor(() => expect(screen.getByTestId('t-empty')).toHaveTextContent('data format error'));
  });

  it("data of an unknown shape: 'data format error'", async () => {
    mockFetch(() => ok({ something: 1 }));
    renderTable();
    await waitFor(() => expect(screen.getByTestId('t-empty')).toHaveTextContent('data format error'));
  });
});

describe('DataTable paging and rows', () => {
  it('sends page/pageSize, renders rows with test ids and the total', async () => {
    const fetch = mockFetch(() => ok({ rows: [{ id: 7, name: 'seven' }], total: 31 }));
    renderTable({ params: { username: 'x' } });
    expect(await screen.findByTestId('t-row-7')).toHaveTextContent('seven');
    expect(screen.getByTestId('t-total')).toHaveTextContent('Total 31');
    const url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/things/index');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('pageSize')).toBe('10');
    expect(url.searchParams.get('username')).toBe('x');
  });

  it('a capped total reads "10,000+" and the pager still reaches its last page', async () => {
    const fetch = mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 10000, total_capped: true }));
    renderTable();
    await screen.findByTestId('t-row-1');
    expect(screen.getByTestId('t-total')).toHaveTextContent('Total 10,000+');
    fireEvent.click(screen.getByTitle('1000'));
    await waitFor(() =>
      expect(new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost').searchParams.get('page')).toBe('1000'),
    );
  });

  it('offers page sizes 10, 20, 30, 40, 50 and reloads on a change', async () => {
    const fetch = mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 100 }));
    renderTable();
    await screen.findByTestId('t-row-1');
    const select = within(screen.getByTestId('t-pagination')).getByRole('combobox');
    fireEvent.mouseDown(select);
    for (const size of [10, 20, 30, 40, 50]) expect((await screen.findAllByText(`${size} / page`)).length).toBeGreaterThan(0);
    fireEvent.click(screen.getAllByText('30 / page').at(-1)!);
    await waitFor(() => {
      const last = new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');
      expect(last.searchParams.get('pageSize')).toBe('30');
    });
  });

  it('accepts the {data, count} shape', async () => {
    mockFetch(() => ok({ data: [{ id: 3, name: 'three' }], count: 1 }));
    renderTable();
    expect(await screen.findByTestId('t-row-3')).toBeInTheDocument();
    expect(screen.getByTestId('t-total')).toHaveTextContent('Total 1');
  });

  it('without pagination sends no page params', async () => {
    const fetch = mockFetch(() => ok([{ id: 4, name: 'four' }]));
    renderTable({ pagination: false });
    expect(await screen.findByTestId('t-row-4')).toBeInTheDocument();
    const url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.searchParams.has('page')).toBe(false);
    expect(screen.queryByTestId('t-pagination')).not.toBeInTheDocument();
  });

  it("summary row is labelled 'Total'", async () => {
    mockFetch(() => ok({ rows: [{ id: 5, name: 'five' }], total: 1, summary: { topup: 10 } }));
    renderTable({ summary: (s) => <SummaryRow cells={[String(s?.topup)]} /> });
    const summary = await screen.findByTestId('table-summary');
    expect(summary).toHaveTextContent('Total');
    expect(summary).toHaveTextContent('10');
  });
});

describe('DataTable reloads (SPEC §4 Table)', () => {
  const lastUrl = (fetch: ReturnType<typeof mockFetch>) => new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');

  it('changing the page reloads; reload goes back to page 1 and clears selection and sort', async () => {
    const fetch = mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }, { id: 2, name: 'two' }], total: 45 }));
    const onSelectionChange = vi.fn();
    renderTable({ selectable: true, onSelectionChange });
    await screen.findByTestId('t-row-1');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastUrl(fetch).searchParams.get('page')).toBe('2'));
    fireEvent.click(within(screen.getByTestId('t-table').querySelector('thead') as HTMLElement).getByText('ID'));
    await waitFor(() => expect(lastUrl(fetch).searchParams.get('prop')).toBe('id'));
    expect(lastUrl(fetch).searchParams.get('order')).toBe('ascending');
    fireEvent.click(within(screen.getByTestId('t-row-1')).getByRole('checkbox'));
    expect(onSelectionChange).toHaveBeenLastCalledWith([1], [{ id: 1, name: 'one' }]);
    fireEvent.click(screen.getByTitle('3'));
    await waitFor(() => expect(lastUrl(fetch).searchParams.get('page')).toBe('3'));

    const calls = fetch.mock.calls.length;
    fireEvent.click(screen.getByTestId('t-reload'));
    await waitFor(() => expect(fetch.mock.calls.length).toBeGreaterThan(calls));
    const url = lastUrl(fetch);
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.has('prop')).toBe(false);
    expect(onSelectionChange).toHaveBeenLastCalledWith([], []);
    expect(within(screen.getByTestId('t-row-1')).getByRole('checkbox')).not.toBeChecked();
  });

  it("a write under the table's area key reads the current page again (useWrite)", async () => {
    const fetch = mockFetch((url) => (url.pathname.endsWith('/things/delete') ? ok({}) : ok({ rows: [{ id: 1, name: 'one' }, { id: 2, name: 'two' }], total: 45 })));
    function Page() {
      const remove = useWrite(() => request({ url: '/things/delete', method: 'POST' }), ['things']);
      return (
        <>
          <button type="button" onClick={() => remove.mutate(undefined)} data-testid="write">write</button>
          <DataTable<Row> id="t" api="/things/index" queryKey={['things']} columns={columns} />
        </>
      );
    }
    renderPage(<Page />, { route: '/table', path: '/table' });
    await screen.findByTestId('t-row-1');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(lastUrl(fetch).searchParams.get('page')).toBe('2'));
    const calls = fetch.mock.calls.length;
    fireEvent.click(screen.getByTestId('write'));
    await waitFor(() => expect(fetch.mock.calls.length).toBe(calls + 2));
    expect(lastUrl(fetch).pathname).toMatch(/\/things\/index$/);
    expect(lastUrl(fetch).searchParams.get('page')).toBe('2');
  });

  it('reload also clears the column header filters', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }, { id: 2, name: 'two' }], total: 2 }));
    const filtered = [
      { title: 'ID', dataIndex: 'id' },
      { title: 'Name', dataIndex: 'name', filters: [{ text: 'only one', value: 'one' }], onFilter: (v: unknown, row: Row) => row.name === v },
    ];
    renderTable({ columns: filtered });
    await screen.findByTestId('t-row-2');
    fireEvent.click(document.querySelector('.ant-table-filter-trigger')!);
    fireEvent.click(await screen.findByText('only one'));
    fireEvent.click(screen.getByRole('button', { name: 'OK' }));
    await waitFor(() => expect(screen.queryByTestId('t-row-2')).not.toBeInTheDocument());
    fireEvent.click(screen.getByTestId('t-reload'));
    expect(await screen.findByTestId('t-row-2')).toBeInTheDocument();
  });

  it('the table is large by default; the settings popovers are 400 and 500 wide', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 1 }));
    renderTable();
    await screen.findByTestId('t-row-1');
    // 'large' is antd's default size: neither the middle nor the small class
    expect(document.querySelector('.ant-table')!.className).not.toMatch(/ant-table-(middle|small)/);
    fireEvent.click(screen.getByTestId('t-settings'));
    expect((await screen.findByTestId('t-table-settings')).style.width).toBe('400px');
    fireEvent.click(screen.getByText('Small'));
    await waitFor(() => expect(document.querySelector('.ant-table')!.className).toContain('ant-table-small'));
    fireEvent.click(screen.getByTestId('t-columns'));
    expect((await screen.findByTestId('t-column-settings')).style.width).toBe('500px');
  });
});

describe('DataTable column settings (SPEC §4, §7, §8)', () => {
  const headers = () => Array.from(document.querySelectorAll('.ant-table-thead th')).map((th) => th.textContent);

  it('hides, orders, sizes and fixes columns; save keeps them in session storage', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 1 }));
    renderTable();
    await screen.findByTestId('t-row-1');
    expect(headers()).toEqual(['ID', 'Name']);
    fireEvent.click(screen.getByTestId('t-columns'));
    await screen.findByTestId('t-column-settings');
    fireEvent.click(screen.getByTestId('t-col-down-id'));
    await waitFor(() => expect(headers()).toEqual(['Name', 'ID']));
    fireEvent.click(screen.getByTestId('t-col-show-name'));
    await waitFor(() => expect(headers()).toEqual(['ID']));
    fireEvent.change(screen.getByTestId('t-col-width-id'), { target: { value: '150' } });
    fireEvent.click(screen.getByTestId('t-columns-save'));
    // a loading state while saving, seen before the save reports (checked together: on a loaded machine
    // the save's 150 ms may pass before waitFor hands back)
    await waitFor(() => {
      expect(screen.getByTestId('t-columns-save').className).toContain('ant-btn-loading');
      expect(feedback.success).not.toHaveBeenCalled();
    });
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('saved successfully'));
    const stored = JSON.parse(window.sessionStorage.getItem('cm_table_columns_t')!).v;
    expect(stored).toEqual([
      { key: 'name', hide: true, width: undefined, fixed: undefined },
      { key: 'id', hide: false, width: 150, fixed: undefined },
    ].map((s) => JSON.parse(JSON.stringify(s))));
  });

  it('starts from the stored settings', async () => {
    window.sessionStorage.setItem('cm_table_columns_t', JSON.stringify({ v: [{ key: 'name', hide: false }, { key: 'id', hide: false, fixed: 'left' }] }));
    mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 1 }));
    renderTable();
    await screen.findByTestId('t-row-1');
    expect(headers()).toEqual(['Name', 'ID']);
  });

  it("reset restores the defaults; storage failures say 'save failed' / 'reset failed'", async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 1 }));
    renderTable();
    await screen.findByTestId('t-row-1');
    fireEvent.click(screen.getByTestId('t-columns'));
    await screen.findByTestId('t-column-settings');
    fireEvent.click(screen.getByTestId('t-col-show-name'));
    await waitFor(() => expect(headers()).toEqual(['ID']));
    fireEvent.click(screen.getByTestId('t-columns-reset'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('reset successfully'));
    expect(headers()).toEqual(['ID', 'Name']);
    const idle = () => waitFor(() => expect(screen.getByTestId('t-columns-save').className).not.toContain('ant-btn-loading'));
    await idle();

    const real = window.sessionStorage;
    const broken = {
      getItem: () => null,
      setItem: () => {
        throw new Error('QuotaExceededError');
      },
      removeItem: () => {
        throw new Error('SecurityError');
      },
    };
    Object.defineProperty(window, 'sessionStorage', { value: broken, configurable: true });
    try {
      fireEvent.click(screen.getByTestId('t-columns-save'));
      await waitFor(() => expect(feedback.error).toHaveBeenCalledWith('save failed'));
      await idle();
      fireEvent.click(screen.getByTestId('t-columns-reset'));
      await waitFor(() => expect(feedback.error).toHaveBeenCalledWith('reset failed'));
    } finally {
      Object.defineProperty(window, 'sessionStorage', { value: real, configurable: true });
    }
  });
});

describe('DataTable filter drawer and show mode', () => {
  it('sends the drawer filterObj, shows the badge and goes back to page 1', async () => {
    const fetch = mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 60 }));
    const onFilterChange = vi.fn();
    renderTable({
      filterFields: [
        { value: 'name', label: 'Name', type: 'text', selected: true },
        { value: 'id', label: 'ID', type: 'text', operator: '=' },
      ],
      onFilterChange,
    });
    await screen.findByTestId('t-row-1');
    fireEvent.click(screen.getByTitle('2'));
    await waitFor(() => expect(new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost').searchParams.get('page')).toBe('2'));
    expect(screen.getByTestId('t-filter-badge')).toHaveAttribute('data-count', '0');
    fireEvent.click(screen.getByTestId('t-filter-open'));
    const value = await screen.findByTestId('t-filter-value-0', undefined, { timeout: 5000 });
    fireEvent.change(value, { target: { value: 'on' } });
    fireEvent.click(screen.getByTestId('t-filter-apply'));
    expect(onFilterChange).toHaveBeenCalledWith({ name: 'on|include' });
    await waitFor(() => {
      const url = new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');
      expect(JSON.parse(url.searchParams.get('filterObj')!)).toEqual({ name: 'on|include' });
      expect(url.searchParams.get('page')).toBe('1');
    });
    expect(screen.getByTestId('t-filter-badge')).toHaveAttribute('data-count', '1');
  });

  it('merges a fixed filterObj from params under the drawer\'s, and reports every loaded page', async () => {
    const fetch = mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }], total: 1 }));
    const onLoad = vi.fn();
    renderTable({
      params: { filterObj: { file_type_id: '3,4|include' } },
      filterFields: [{ value: 'name', label: 'Name', type: 'text', selected: true }],
      onLoad,
    });
    await screen.findByTestId('t-row-1');
    const first = new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');
    expect(JSON.parse(first.searchParams.get('filterObj')!)).toEqual({ file_type_id: '3,4|include' });
    expect(onLoad).toHaveBeenCalledWith({ rows: [{ id: 1, name: 'one' }], total: 1, summary: undefined }, expect.objectContaining({ rows: [{ id: 1, name: 'one' }] }));
    fireEvent.click(screen.getByTestId('t-filter-open'));
    const value = await screen.findByTestId('t-filter-value-0', undefined, { timeout: 5000 });
    fireEvent.change(value, { target: { value: 'on' } });
    fireEvent.click(screen.getByTestId('t-filter-apply'));
    await waitFor(() => {
      const url = new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');
      expect(JSON.parse(url.searchParams.get('filterObj')!)).toEqual({ file_type_id: '3,4|include', name: 'on|include' });
    });
    // the badge counts the drawer's rows only
    expect(screen.getByTestId('t-filter-badge')).toHaveAttribute('data-count', '1');
    expect(onLoad).toHaveBeenCalledTimes(2);
  });

  it('reshapes the loaded rows with transform before showing and reporting them', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'one' }, { id: 2, name: 'two' }], total: 2 }));
    const onLoad = vi.fn();
    renderTable({ transform: (rows) => rows.filter((r) => r.id === 2).map((r) => ({ ...r, name: 'TWO' })), onLoad });
    expect(await screen.findByTestId('t-row-2')).toHaveTextContent('TWO');
    expect(screen.queryByTestId('t-row-1')).toBeNull();
    expect(onLoad).toHaveBeenCalledWith({ rows: [{ id: 2, name: 'TWO' }], total: 2, summary: undefined }, expect.anything());
  });

  it("'show' mode parses each row's text_json, then its content, and emits the result", async () => {
    const content = JSON.stringify({ title: 'hello', lines: [1, 2] });
    mockFetch(() => ok({ rows: [{ id: 9, name: 'n', text_json: JSON.stringify({ content, voice: 'x' }) }], total: 1 }));
    const onShow = vi.fn();
    renderTable({ mode: 'show', onShow });
    await screen.findByTestId('t-row-9');
    expect(onShow).toHaveBeenCalledWith([
      { id: 9, name: 'n', text_json: { content, voice: 'x' }, content: { title: 'hello', lines: [1, 2] } },
    ]);
  });
});

describe('headers that fit (English headers broke inside words: "Capacit y", "Faile d")', () => {
  const narrow = [
    { title: 'Capacity', dataIndex: 'capacity', width: 60, sorter: true },
    { title: 'Failed', dataIndex: 'failed', width: 40 },
    { title: '失败次数', dataIndex: 'n', width: 40 },
    { title: 'Name', dataIndex: 'name' },
  ];
  const colWidths = () => Array.from(document.querySelectorAll('[data-testid="t-table"] colgroup col')).map((c) => parseFloat((c as HTMLElement).style.width) || 0);

  it('widens a column too narrow for its header and keeps every header on one line', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'a' }], total: 1 }));
    renderPage(<DataTable<Row> id="t" api="/things/index" columns={narrow as never} scrollX={200} />, { route: '/table', path: '/table' });
    await screen.findByTestId('t-row-1');
    const [capacity, failed, cjk] = colWidths();
    // the text itself (bold 14 px: "Capacity" ≥ 62 px, "Failed" ≥ 44 px, four CJK characters 56 px) plus 32 px padding, and the sort arrows
    expect(capacity).toBeGreaterThanOrEqual(62 + 32 + 20);
    expect(failed).toBeGreaterThanOrEqual(44 + 32);
    expect(cjk).toBeGreaterThanOrEqual(56 + 32);
    for (const th of screen.getAllByRole('columnheader')) expect(th).toHaveStyle({ whiteSpace: 'nowrap' });
    // the scrolled table is as wide as its widened columns
    const table = document.querySelector('[data-testid="t-table"] table') as HTMLElement;
    expect(parseFloat(table.style.width)).toBeGreaterThanOrEqual(capacity + failed + cjk);
  });

  it('a header wide enough already keeps its width', async () => {
    mockFetch(() => ok({ rows: [], total: 0 }));
    renderPage(<DataTable<Row> id="t" api="/things/index" columns={[{ title: 'ID', dataIndex: 'id', width: 150 }, { title: 'Name', dataIndex: 'name', width: 200 }]} scrollX={350} />, {
      route: '/table',
      path: '/table',
    });
    await screen.findByTestId('t-empty');
    expect(colWidths()).toEqual([150, 200]);
  });

  it('columns without a width beside a fixed column get their room: the table scrolls instead of hiding them (was "Merchant name" in 77 px)', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'a' }], total: 1 }));
    const cols = [
      { title: 'Merchant name', dataIndex: 'name' },
      { title: 'Sign-in account', dataIndex: 'username' },
      { title: 'Shot groups (ready clips)', dataIndex: 'groups' },
      { title: 'Actions', key: 'actions', width: 200, fixed: 'right' },
    ];
    renderPage(<DataTable<Row> id="t" api="/things/index" columns={cols as never} scrollX={300} />, { route: '/table', path: '/table' });
    await screen.findByTestId('t-row-1');
    const table = document.querySelector('[data-testid="t-table"] table') as HTMLElement;
    // three equal shares, each holding the widest header ("Shot groups (ready clips)") and at least FLEX_MIN
    const widest = headerWidth({ title: 'Shot groups (ready clips)' });
    expect(parseFloat(table.style.width)).toBeGreaterThanOrEqual(200 + 3 * Math.max(widest, FLEX_MIN));
  });

  it('a table given no scroll width still scrolls inside its card rather than overflowing it', async () => {
    mockFetch(() => ok({ rows: [{ id: 1, name: 'a' }], total: 1 }));
    const cols = [
      { title: 'Clip', dataIndex: 'name', width: 400 },
      { title: 'Plays', dataIndex: 'plays', width: 400 },
      { title: 'Likes', dataIndex: 'likes' },
    ];
    renderPage(<DataTable<Row> id="t" api="/things/index" columns={cols as never} />, { route: '/table', path: '/table' });
    await screen.findByTestId('t-row-1');
    const table = document.querySelector('[data-testid="t-table"] table') as HTMLElement;
    expect(parseFloat(table.style.width)).toBe(widthSum(cols as never));
    expect(widthSum(cols as never)).toBe(800 + FLEX_MIN);
  });
});
