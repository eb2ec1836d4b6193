import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage } from '@/test/utils';
import TableSelect, { TABLE_SELECT_HEIGHT, TABLE_SELECT_PAGE_SIZE, TABLE_SELECT_WIDTH } from '.';

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

const columns = [
  { title: 'ID', dataIndex: 'id' },
  { title: 'Name', dataIndex: 'name' },
];

const rows = (page: number) => Array.from({ length: 20 }, (_, i) => ({ id: (page - 1) * 20 + i + 1, name: `m${(page - 1) * 20 + i + 1}` }));

describe('TableSelect (SPEC §3, §9)', () => {
  it('page size 20, table height 245, width 400', () => {
    expect([TABLE_SELECT_PAGE_SIZE, TABLE_SELECT_HEIGHT, TABLE_SELECT_WIDTH]).toEqual([20, 245, 400]);
  });

  it('loads data.rows / data.total page by page, searches remotely and selects a row', async () => {
    const fetch = mockFetch((url) => {
      const page = Number(url.searchParams.get('page'));
      return ok({ rows: url.searchParams.get('filterObj') ? [{ id: 99, name: 'found' }] : rows(page), total: 45 });
    });
    const onChange = vi.fn();
    renderPage(<TableSelect api="/system/merchant/index" columns={columns} onChange={onChange} />, { route: '/s', path: '/s' });
    expect(fetch).not.toHaveBeenCalled(); // nothing until opened
    fireEvent.mouseDown(within(screen.getByTestId('table-select')).getByRole('combobox'));
    const popup = await screen.findByTestId('table-select-popup');
    expect(popup.style.width).toBe('400px');
    await within(popup).findByText('m1');
    let url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.searchParams.get('page')).toBe('1');
    expect(url.searchParams.get('pageSize')).toBe('20');
    expect((popup.querySelector('.ant-table-body') as HTMLElement).style.maxHeight).toBe('245px');

    fireEvent.click(within(popup).getByTitle('Next Page'));
    await within(popup).findByText('m21');
    url = new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');
    expect(url.searchParams.get('page')).toBe('2');

    fireEvent.change(screen.getByTestId('table-select-search').querySelector('input') ?? screen.getByTestId('table-select-search'), { target: { value: 'fou' } });
    await within(popup).findByText('found', undefined, { timeout: 3000 });
    url = new URL(String(fetch.mock.calls.at(-1)![0]), 'http://localhost');
    expect(JSON.parse(url.searchParams.get('filterObj')!)).toEqual({ name: 'fou|include' });
    expect(url.searchParams.get('page')).toBe('1');

    fireEvent.click(screen.getByTestId('table-select-row-99'));
    expect(onChange).toHaveBeenCalledWith(99, [{ id: 99, name: 'found' }]);
  });

  it('stays on the page chosen right after opening (an unchanged search resets nothing)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const fetch = mockFetch((url) => ok({ rows: rows(Number(url.searchParams.get('page'))), total: 45 }));
      renderPage(<TableSelect api="/x" columns={columns} />, { route: '/s', path: '/s' });
      fireEvent.mouseDown(within(screen.getByTestId('table-select')).getByRole('combobox'));
      await act(() => vi.advanceTimersByTimeAsync(20));
      const popup = screen.getByTestId('table-select-popup');
      expect(within(popup).getByText('m1')).toBeInTheDocument();
      fireEvent.click(within(popup).getByTitle('Next Page'));
      await act(() => vi.advanceTimersByTimeAsync(20));
      expect(within(popup).getByText('m21')).toBeInTheDocument();
      await act(() => vi.advanceTimersByTimeAsync(400)); // past the search's 300 ms since opening
      expect(within(popup).getByText('m21')).toBeInTheDocument();
      expect(fetch.mock.calls.map(([u]) => new URL(String(u), 'http://localhost').searchParams.get('page'))).toEqual(['1', '2']);
    } finally {
      vi.useRealTimers();
    }
  });

  it('shows the label of the chosen row', async () => {
    mockFetch(() => ok({ rows: [{ id: 5, name: 'five' }], total: 1 }));
    function Harness() {
      const [value, setValue] = useState<string | number | undefined>();
      return <TableSelect api="/x" columns={columns} value={value} onChange={(v) => setValue(v as number)} />;
    }
    renderPage(<Harness />, { route: '/s', path: '/s' });
    fireEvent.mouseDown(within(screen.getByTestId('table-select')).getByRole('combobox'));
    fireEvent.click(await screen.findByTestId('table-select-row-5'));
    await waitFor(() => expect(screen.getByTestId('table-select')).toHaveTextContent('five'));
  });
});
