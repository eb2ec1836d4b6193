import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import DataTable, { SummaryRow } from '.';

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
