import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { App as AntApp } from 'antd';
import { useState } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { storage } from '@/utils/storage';
import FilterDrawer from './FilterDrawer';
import type { FilterField, FilterObj, FilterRow } from './model';

let feedback: ReturnType<typeof spyFeedback>;
const fetch = vi.fn();

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  feedback = spyFeedback();
  vi.stubGlobal('fetch', fetch);
  storage.set('user', { id: 7, username: 'demo' });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
  fetch.mockReset();
});

const fields: FilterField[] = [
  { value: 'username', label: 'Account', type: 'text', placeholder: 'who' },
  { value: 'result', label: 'Result', type: 'select', operator: '=', operators: ['=', '!='], extend: { data: [{ label: 'Success', value: 'success' }, { label: 'Failed', value: 'failed' }] } },
  { value: 'tags', label: 'Tags', type: 'tags' },
];

function Harness({ onApply, onClose, initial = [] }: { onApply: (rows: FilterRow[], obj: FilterObj) => void; onClose?: () => void; initial?: FilterRow[] }) {
  const [open, setOpen] = useState(true);
  const [rows, setRows] = useState<FilterRow[]>(initial);
  return (
    <AntApp>
      <button data-testid="reopen" onClick={() => setOpen(true)}>
        open
      </button>
      <span data-testid="open-state">{String(open)}</span>
      <FilterDrawer
        open={open}
        onClose={() => {
          setOpen(false);
          onClose?.();
        }}
        fields={fields}
        rows={rows}
        onApply={(r, obj) => {
          setRows(r);
          onApply(r, obj);
        }}
        scope="log"
      />
    </AntApp>
  );
}

async function pickOption(testId: string, label: string) {
  const select = screen.getByTestId(testId);
  fireEvent.mouseDown(within(select).getByRole('combobox'));
  const options = await screen.findAllByTitle(label);
  fireEvent.click(options.at(-1)!);
}

const savedList = () => screen.getByTestId('filter-saved');

describe('FilterDrawer (SPEC §4, §5, §8)', () => {
  it("is titled 'filter', 650 wide; apply and save-as-common are disabled without rows", async () => {
    render(<Harness onApply={vi.fn()} />);
    expect(await screen.findByText('filter')).toBeInTheDocument();
    const wrapper = document.querySelector('.ant-drawer-content-wrapper') as HTMLElement;
    expect(wrapper.style.width).toBe('650px');
    expect(screen.getByTestId('filter-apply')).toBeDisabled();
    expect(screen.getByTestId('filter-save')).toBeDisabled();
  });

  it('adds rows with the next free field; used fields are disabled; when all are used: no filter items', async () => {
    render(<Harness onApply={vi.fn()} />);
    fireEvent.click(screen.getByTestId('filter-add'));
    fireEvent.click(screen.getByTestId('filter-add'));
    fireEvent.click(screen.getByTestId('filter-add'));
    expect(within(screen.getByTestId('filter-row-0')).getByText('Account')).toBeInTheDocument();
    expect(within(screen.getByTestId('filter-row-1')).getByText('Result')).toBeInTheDocument();
    expect(within(screen.getByTestId('filter-row-2')).getByText('Tags')).toBeInTheDocument();
    expect(feedback.warning).not.toHaveBeenCalled();
    fireEvent.click(screen.getByTestId('filter-add'));
    expect(feedback.warning).toHaveBeenCalledWith('no filter items');
    expect(screen.queryByTestId('filter-row-3')).not.toBeInTheDocument();

    // in row 0's picker the fields of rows 1 and 2 are disabled, its own is not
    fireEvent.mouseDown(within(screen.getByTestId('filter-field-0')).getByRole('combobox'));
    const result = (await screen.findAllByTitle('Result')).find((e) => e.classList.contains('ant-select-item'))!;
    expect(result.className).toContain('ant-select-item-option-disabled');
    const account = (await screen.findAllByTitle('Account')).find((e) => e.classList.contains('ant-select-item'))!;
    expect(account.className).not.toContain('ant-select-item-option-disabled');
    expect(screen.getByTestId('filter-apply')).toBeEnabled();
  });

  it('choosing a field resets the operator to its default and clears the value', async () => {
    render(<Harness onApply={vi.fn()} />);
    fireEvent.click(screen.getByTestId('filter-add'));
    const input = screen.getByTestId('filter-value-0');
    fireEvent.change(input, { target: { value: 'bob' } });
    expect(within(screen.getByTestId('filter-operator-0')).getByText('includes')).toBeInTheDocument();
    await pickOption('filter-operator-0', 'excludes');
    expect(within(screen.getByTestId('filter-operator-0')).getByText('excludes')).toBeInTheDocument();
    await pickOption('filter-field-0', 'Result');
    await waitFor(() => expect(within(screen.getByTestId('filter-operator-0')).getByText('equals')).toBeInTheDocument());
    await pickOption('filter-field-0', 'Account');
    await waitFor(() => expect(within(screen.getByTestId('filter-operator-0')).getByText('includes')).toBeInTheDocument());
    expect(screen.getByTestId('filter-value-0')).toHaveValue('');
  });

  it('apply emits the filterObj and closes; tags are typed with Enter', async () => {
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    fireEvent.click(screen.getByTestId('filter-add'));
    fireEvent.change(screen.getByTestId('filter-value-0'), { target: { value: 'bob' } });
    fireEvent.click(screen.getByTestId('filter-add'));
    await pickOption('filter-value-1', 'Success');
    fireEvent.click(screen.getByTestId('filter-add'));
    const tags = within(screen.getByTestId('filter-value-2')).getByRole('combobox');
    fireEvent.change(tags, { target: { value: 'alpha' } });
    fireEvent.keyDown(tags, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.change(tags, { target: { value: 'beta' } });
    fireEvent.keyDown(tags, { key: 'Enter', code: 'Enter', keyCode: 13 });
    fireEvent.click(screen.getByTestId('filter-apply'));
    expect(onApply).toHaveBeenCalledTimes(1);
    expect(onApply.mock.calls[0][1]).toEqual({ username: 'bob|include', result: 'success|=', tags: 'alpha,beta|include' });
    expect(screen.getByTestId('open-state')).toHaveTextContent('false');
  });

  it('clear empties the rows and emits an empty filter', async () => {
    const onApply = vi.fn();
    render(<Harness onApply={onApply} initial={[{ key: 'r', field: 'username', operator: 'include', value: 'x' }]} />);
    expect(await screen.findByTestId('filter-row-0')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('filter-clear'));
    expect(onApply).toHaveBeenCalledWith([], {});
    expect(screen.queryByTestId('filter-row-0')).not.toBeInTheDocument();
    expect(screen.getByTestId('filter-apply')).toBeDisabled();
  });

  it('saves a common filter (name required), lists it, applies it (closing) and deletes it — without the network', async () => {
    const onApply = vi.fn();
    render(<Harness onApply={onApply} />);
    await waitFor(() => expect(within(savedList()).getByText('No common filters yet')).toBeInTheDocument(), { timeout: 2000 });
    fireEvent.click(screen.getByTestId('filter-add'));
    fireEvent.change(screen.getByTestId('filter-value-0'), { target: { value: 'bob' } });

    fireEvent.click(screen.getByTestId('filter-save'));
    const name = await screen.findByTestId('filter-name');
    fireEvent.change(name, { target: { value: '   ' } });
    fireEvent.click(screen.getByTestId('filter-name-ok'));
    expect(await screen.findByText('name cannot be empty')).toBeInTheDocument();

    fireEvent.change(name, { target: { value: 'Bob only' } });
    fireEvent.click(screen.getByTestId('filter-name-ok'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('Bob only saved common filter successfully'), { timeout: 2000 });
    const stored = JSON.parse(window.localStorage.getItem('cm_common_filters_7_log')!).v;
    expect(stored).toEqual([expect.objectContaining({ title: 'Bob only', filterObj: { username: 'bob|include' } })]);
    expect(await screen.findByTestId('filter-saved-0', undefined, { timeout: 2000 })).toHaveTextContent('Bob only');

    // choosing it applies it and closes the drawer
    fireEvent.click(screen.getByTestId('filter-saved-0'));
    expect(onApply).toHaveBeenLastCalledWith([expect.objectContaining({ field: 'username', value: 'bob' })], { username: 'bob|include' });
    expect(screen.getByTestId('open-state')).toHaveTextContent('false');

    // delete asks first
    fireEvent.click(screen.getByTestId('reopen'));
    fireEvent.click(await screen.findByTestId('filter-saved-delete-0', undefined, { timeout: 2000 }));
    expect(await screen.findByText('confirm delete this common filter?')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('filter-saved-delete-ok'));
    await waitFor(() => expect(feedback.success).toHaveBeenCalledWith('deleted common filter successfully'), { timeout: 2000 });
    await waitFor(() => expect(screen.queryByTestId('filter-saved-0')).not.toBeInTheDocument(), { timeout: 2000 });
    await act(async () => undefined);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('a remote select asks the caller-supplied request with the search text', async () => {
    const request = vi.fn(async (text: string) => (text ? [{ label: `${text} shop`, value: 7 }] : [{ label: 'first', value: 1 }]));
    const remoteFields: FilterField[] = [{ value: 'merchant_id', label: 'Merchant', type: 'select', operator: '=', extend: { remote: true, request } }];
    const onApply = vi.fn();
    render(
      <AntApp>
        <FilterDrawer open onClose={() => undefined} fields={remoteFields} rows={[]} onApply={onApply} scope="remote" />
      </AntApp>,
    );
    fireEvent.click(screen.getByTestId('filter-add'));
    await waitFor(() => expect(request).toHaveBeenCalledWith(''), { timeout: 2000 });
    const box = within(screen.getByTestId('filter-value-0')).getByRole('combobox');
    fireEvent.mouseDown(box);
    fireEvent.change(box, { target: { value: 'acme' } });
    await waitFor(() => expect(request).toHaveBeenLastCalledWith('acme'), { timeout: 2000 });
    fireEvent.click(await screen.findByTitle('acme shop'));
    fireEvent.click(screen.getByTestId('filter-apply'));
    expect(onApply.mock.calls[0][1]).toEqual({ merchant_id: '7|=' });
  });
});
