import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { dicPayload, optionsProblem } from './DicFormModal';
import DicPage from '.';

type Dic = { id: number; name: string; title: string; options: Array<{ label: string; value: string }>; updated_at: number };

let dics: Dic[];
let calls: Array<{ path: string; method: string; query: URLSearchParams; body: unknown }>;

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  calls = [];
  dics = [{ id: 1, name: 'log_result', title: '操作结果 / Result', options: [{ label: '成功 / success', value: 'success' }, { label: '失败 / failed', value: 'failed' }], updated_at: 1 }];
  mockFetch((url, init) => {
    const body = init.body ? JSON.parse(String(init.body)) : undefined;
    calls.push({ path: url.pathname, method: init.method ?? 'GET', query: url.searchParams, body });
    if (url.pathname === '/api/system/dic/index') return ok({ rows: dics, total: dics.length });
    if (url.pathname === '/api/system/dic') {
      // the server localizes bilingual labels: the caller reads English here
      const d = dics.find((x) => x.name === url.searchParams.get('name'));
      return ok((d?.options ?? []).map((o) => ({ label: o.label.split(' / ').at(-1), value: o.value })));
    }
    if (url.pathname === '/api/system/dic/save') {
      const saved = { id: dics.length + 1, ...body, updated_at: 2 };
      dics = [...dics.filter((d) => d.name !== body.name), saved];
      return ok(saved);
    }
    return ok({});
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('dictionary payload', () => {
  it('trims the texts and sends the options as {label, value} strings', () => {
    expect(dicPayload({ name: ' order_state ', title: ' Order ', options: [{ label: ' 已完成 / Done ', value: 1 }, { label: 'x', value: ' y ', extra: true } as never] })).toEqual({
      name: 'order_state',
      title: 'Order',
      options: [
        { label: '已完成 / Done', value: '1' },
        { label: 'x', value: 'y' },
      ],
    });
  });

  it('needs at least one complete option and distinct values', () => {
    expect(optionsProblem([])).toBe('empty');
    expect(optionsProblem([{ label: 'a', value: '' }])).toBe('cell');
    expect(optionsProblem([{ label: 'a', value: '1' }, { label: 'b', value: ' 1' }])).toEqual({ repeated: '1' });
    expect(optionsProblem([{ label: 'a', value: '1' }, { label: 'b', value: '2' }])).toBeNull();
  });
});

// whole pages render here: slow on a busy machine
describe('/system/dic page', { timeout: 60_000 }, () => {
  it('lists the dictionaries and previews each one with the dictionary select', async () => {
    renderPage(<DicPage />, { route: '/system/dic', path: '/system/dic' });
    expect(await screen.findByText('log_result')).toBeInTheDocument();
    const preview = screen.getByTestId('dic-preview-log_result');
    fireEvent.mouseDown(within(preview).getByRole('combobox'));
    expect(await screen.findByTitle('success')).toBeInTheDocument();
    expect(screen.getByTitle('failed')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/system/dic' && c.query.get('name') === 'log_result')).toBe(true);
  });

  it('refuses a name outside a-z0-9_ and an incomplete option before anything is sent', async () => {
    renderPage(<DicPage />, { route: '/system/dic', path: '/system/dic' });
    fireEvent.click(screen.getByTestId('dic-add'));
    const form = await screen.findByTestId('dic-form');
    fireEvent.change(within(form).getByTestId('dic-form-name'), { target: { value: 'Order-State' } });
    fireEvent.change(within(form).getByTestId('dic-form-title'), { target: { value: '订单状态 / Order state' } });
    fireEvent.click(screen.getByTestId('dic-modal-ok'));
    expect(await screen.findByText('Only a-z, 0-9 and _ (at most 64)')).toBeInTheDocument();
    expect(await screen.findByText('Every option needs a label and a value')).toBeInTheDocument();
    expect(calls.some((c) => c.path === '/api/system/dic/save')).toBe(false);
  });

  it('adds a dictionary: ConfigForm + options table, saves {name, title, options} and the preview reads it', async () => {
    renderPage(<DicPage />, { route: '/system/dic', path: '/system/dic' });
    fireEvent.click(screen.getByTestId('dic-add'));
    const form = await screen.findByTestId('dic-form');
    fireEvent.change(within(form).getByTestId('dic-form-name'), { target: { value: 'order_state' } });
    fireEvent.change(within(form).getByTestId('dic-form-title'), { target: { value: '订单状态 / Order state' } });
    fireEvent.change(screen.getByTestId('dic-form-options-cell-0-label'), { target: { value: '待处理 / Pending' } });
    fireEvent.change(screen.getByTestId('dic-form-options-cell-0-value'), { target: { value: 'pending' } });
    fireEvent.click(screen.getByTestId('dic-form-options-add'));
    fireEvent.change(screen.getByTestId('dic-form-options-cell-1-label'), { target: { value: '已完成 / Done' } });
    fireEvent.change(screen.getByTestId('dic-form-options-cell-1-value'), { target: { value: 'done' } });
    fireEvent.click(screen.getByTestId('dic-modal-ok'));

    await waitFor(() => expect(calls.find((c) => c.path === '/api/system/dic/save')).toBeTruthy());
    const save = calls.find((c) => c.path === '/api/system/dic/save')!;
    expect(save.method).toBe('POST');
    expect(save.body).toEqual({
      name: 'order_state',
      title: '订单状态 / Order state',
      options: [
        { label: '待处理 / Pending', value: 'pending' },
        { label: '已完成 / Done', value: 'done' },
      ],
    });

    const preview = await screen.findByTestId('dic-preview-order_state');
    fireEvent.mouseDown(within(preview).getByRole('combobox'));
    expect(await screen.findByTitle('Pending')).toBeInTheDocument();
    expect(screen.getByTitle('Done')).toBeInTheDocument();
  });

  it('asks before Esc throws a half-filled dictionary away', async () => {
    const feedback = spyFeedback();
    renderPage(<DicPage />, { route: '/system/dic', path: '/system/dic' });
    fireEvent.click(screen.getByTestId('dic-add'));
    const form = await screen.findByTestId('dic-form');
    fireEvent.change(within(form).getByTestId('dic-form-name'), { target: { value: 'order_state' } });
    fireEvent.keyDown(document.activeElement ?? document.body, { key: 'Escape', code: 'Escape', keyCode: 27 });
    fireEvent.click(document.querySelector('.ant-modal-close') as HTMLElement);
    expect(feedback.confirm).toHaveBeenCalledWith(expect.objectContaining({ title: 'Discard your changes?' }));
    expect(screen.getByTestId('dic-form-name')).toHaveValue('order_state');
  });

  it('edits an existing dictionary with its name fixed', async () => {
    renderPage(<DicPage />, { route: '/system/dic', path: '/system/dic' });
    fireEvent.click(await screen.findByTestId('dic-edit-log_result'));
    const name = await screen.findByTestId('dic-form-name');
    expect(name).toBeDisabled();
    expect(name).toHaveValue('log_result');
    expect(screen.getByTestId('dic-form-options-cell-1-label')).toHaveValue('失败 / failed');
    fireEvent.click(screen.getByTestId('dic-form-options-remove-1'));
    fireEvent.click(await screen.findByTestId('dic-form-options-remove-ok'));
    fireEvent.click(screen.getByTestId('dic-modal-ok'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/system/dic/save')?.body).toEqual({
      name: 'log_result',
      title: '操作结果 / Result',
      options: [{ label: '成功 / success', value: 'success' }],
    }));
  });

  it('deletes with {id}', async () => {
    renderPage(<DicPage />, { route: '/system/dic', path: '/system/dic' });
    fireEvent.click(await screen.findByTestId('dic-delete-log_result'));
    fireEvent.click(await screen.findByTestId('dic-delete-ok'));
    await waitFor(() => expect(calls.find((c) => c.path === '/api/system/dic/delete')?.body).toEqual({ id: 1 }));
  });
});
