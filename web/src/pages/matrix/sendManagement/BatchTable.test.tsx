import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { useState } from 'react';
import i18n from '@/i18n';
import type { BatchRow, BatchRowError } from '@/api/matrix/types';
import { json, mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import BatchImport from './BatchImport';
import BatchTable, { errorsAfterEdit } from './BatchTable';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const row = (n: number, extra: Partial<BatchRow> = {}): BatchRow => ({
  row: n,
  video: String(n * 10),
  account: 'Shop A',
  group: '',
  title: `Title ${n}`,
  topics: 'summer',
  at_users: '',
  time: '2030-01-02 09:00',
  mount_type: 'none',
  mount_id: '',
  mount_title: '',
  mount_url: '',
  declaration: 'auto',
  ...extra,
});

const err = (r: number, column: string, message: string): BatchRowError => ({ row: r, column, column_name: column, message });

/** The table with its state, as the batch dialog holds it. */
function Harness({ rows, errors, seen }: { rows: BatchRow[]; errors: BatchRowError[]; seen: (r: BatchRow[], e: BatchRowError[]) => void }) {
  const [state, setState] = useState({ rows, errors });
  return (
    <BatchTable
      value={state.rows}
      errors={state.errors}
      onChange={(r, e) => {
        setState({ rows: r, errors: e });
        seen(r, e);
      }}
    />
  );
}

describe('BatchTable', () => {
  it('shows the server errors at their cells; editing a cell clears its error only', async () => {
    const seen = vi.fn();
    render(<Harness rows={[row(2), row(3)]} errors={[err(2, 'video', 'There is no finished video 20'), err(3, 'title', 'Too long')]} seen={seen} />);
    expect(await screen.findByTestId('batch-rows-cell-0-video-error')).toHaveTextContent('There is no finished video 20');
    expect(screen.getByTestId('batch-rows-cell-1-title-error')).toHaveTextContent('Too long');
    fireEvent.change(screen.getByTestId('batch-rows-cell-0-video'), { target: { value: '21' } });
    await waitFor(() => expect(screen.queryByTestId('batch-rows-cell-0-video-error')).not.toBeInTheDocument());
    expect(screen.getByTestId('batch-rows-cell-1-title-error')).toBeInTheDocument();
    const [rows, errors] = seen.mock.lastCall!;
    expect(rows[0].video).toBe('21');
    expect(errors).toEqual([err(3, 'title', 'Too long')]);
  });

  it('adds a row with the next row number and removes rows with their errors', async () => {
    const seen = vi.fn();
    render(<Harness rows={[row(2), row(5)]} errors={[err(5, 'time', 'passed')]} seen={seen} />);
    fireEvent.click(screen.getByTestId('batch-rows-add'));
    expect(seen.mock.lastCall![0][2]).toMatchObject({ row: 6, mount_type: 'none', declaration: 'auto' });
    fireEvent.click(screen.getByTestId('batch-rows-remove-1'));
    fireEvent.click(await screen.findByTestId('batch-rows-remove-ok'));
    const [rows, errors] = seen.mock.lastCall!;
    expect(rows.map((r: BatchRow) => r.row)).toEqual([2, 6]);
    expect(errors).toEqual([]);
  });

  it('errorsAfterEdit keeps an account error until the account or the group changes', () => {
    const before = [row(2)];
    const e = [err(2, 'account', 'no such account')];
    expect(errorsAfterEdit(before, [row(2, { title: 'x' })], e)).toEqual(e);
    expect(errorsAfterEdit(before, [row(2, { account: '', group: 'East' })], e)).toEqual([]);
  });
});

describe('BatchImport', () => {
  let sent: Record<string, unknown>[];
  beforeEach(() => {
    sent = [];
    spyFeedback();
    mockFetch((url, init) => {
      const body = init.body ? JSON.parse(String(init.body)) : {};
      if (url.pathname.endsWith('/batch_add')) {
        sent.push(body);
        const rows = body.rows as BatchRow[];
        if (rows.some((r) => r.video === '0'))
          return json({ code: 422, message: '1 rows of the sheet are wrong; nothing was imported: row 2, Video ID: bad', data: { field: 'rows', rows: [err(2, 'video', 'bad')] } }, 422);
        return ok({ errors: [], task: { id: 9, name: body.name } });
      }
      return ok({});
    });
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setFeedback(null);
  });

  it('shows a refused batch\'s rows inline, then creates the task once fixed', async () => {
    const created = vi.fn();
    renderPage(<BatchImport sheet={{ rows: [row(2, { video: '0' })], errors: [], file_name: 'summer.xlsx' }} onClose={() => {}} onCreated={created} />, { route: '/send_management' });
    expect(await screen.findByTestId('batch-name')).toHaveValue('summer');
    fireEvent.click(screen.getByTestId('batch-submit'));
    expect(await screen.findByTestId('batch-rows-cell-0-video-error')).toHaveTextContent('bad');
    expect(screen.getByTestId('batch-errors')).toHaveTextContent('1 rows of the sheet are wrong');
    fireEvent.change(screen.getByTestId('batch-rows-cell-0-video'), { target: { value: '20' } });
    fireEvent.click(screen.getByTestId('batch-submit'));
    await waitFor(() => expect(created).toHaveBeenCalledWith({ id: 9, name: 'summer' }, 1));
    expect(sent[1]).toMatchObject({ name: 'summer', check: false, rows: [{ row: 2, video: '20' }] });
  });
});
