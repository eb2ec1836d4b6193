import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { Form, Input } from 'antd';
import { useEffect } from 'react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage as renderAt, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import ConfigForm, { type ComponentRenderer, type FormItemConfig } from '.';

let feedback: ReturnType<typeof spyFeedback>;
const renderPage = (ui: Parameters<typeof renderAt>[0]) => renderAt(ui, { route: '/form', path: '/form' });

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

const items: FormItemConfig[] = [
  { component: 'select', name: 'type', label: 'Type', value: 'video', options: { items: [{ label: 'Video', value: 'video' }, { label: 'Link', value: 'link' }] } },
  { component: 'input', name: 'title', label: 'Title', span: 12, tips: 'Shown to viewers', options: { maxlength: 20 } },
  { component: 'input', name: 'url', label: 'Link', hideHandle: "type != 'link'", requiredHandle: "type == 'link'", message: 'Enter the link' },
  { component: 'input', name: 'note', label: 'Note', requiredHandle: "title == 'needs note'" },
];

describe('ConfigForm (SPEC §3 form item, §4, §5)', () => {
  it('shows a skeleton until the config loads', async () => {
    let resolve!: (v: FormItemConfig[]) => void;
    const load = () => new Promise<FormItemConfig[]>((r) => (resolve = r));
    renderPage(<ConfigForm loadItems={load} />);
    expect(screen.getByTestId('config-form-skeleton')).toBeInTheDocument();
    await act(async () => resolve(items));
    expect(await screen.findByTestId('config-form')).toBeInTheDocument();
    expect(screen.queryByTestId('config-form-skeleton')).not.toBeInTheDocument();
  });

  it('shows a skeleton until remote options load, then offers them', async () => {
    let answer!: (r: Response) => void;
    const fetch = mockFetch(() => new Promise<Response>((r) => (answer = r)));
    renderPage(<ConfigForm items={[{ component: 'select', name: 'group', label: 'Group', options: { remote: { api: '/groups/options', data: { kind: 'video' } } } }]} />);
    expect(screen.getByTestId('config-form-skeleton')).toBeInTheDocument();
    await waitFor(() => expect(fetch).toHaveBeenCalled());
    const url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/groups/options');
    expect(url.searchParams.get('kind')).toBe('video');
    await act(async () => answer(ok([{ label: 'Spring', value: 1 }])));
    await screen.findByTestId('config-form');
    fireEvent.mouseDown(screen.getByRole('combobox'));
    expect(await screen.findByText('Spring')).toBeInTheDocument();
  });

  it("an unknown component says '[type] Component not found'", () => {
    renderPage(<ConfigForm items={[{ component: 'colorWheel', name: 'c', label: 'Colour' }]} />);
    expect(screen.getByTestId('config-form-c-missing')).toHaveTextContent('[colorWheel] Component not found');
  });

  it('lays items out by span (default 24) with tips and maxlength', () => {
    renderPage(<ConfigForm items={items} />);
    const title = screen.getByTestId('config-form-title-item').closest('.ant-col')!;
    expect(title.className).toContain('ant-col-12');
    const type = screen.getByTestId('config-form-type-item').closest('.ant-col')!;
    expect(type.className).toContain('ant-col-24');
    expect(screen.getByText('Shown to viewers')).toBeInTheDocument();
    expect(screen.getByTestId('config-form-title')).toHaveAttribute('maxlength', '20');
  });

  it('hides and requires fields by expressions over the other values', async () => {
    const onSubmit = vi.fn();
    renderPage(<ConfigForm items={items} onSubmit={onSubmit} />);
    expect(screen.queryByTestId('config-form-url')).not.toBeInTheDocument();
    fireEvent.mouseDown(screen.getByRole('combobox'));
    fireEvent.click(await screen.findByText('Link'));
    expect(await screen.findByTestId('config-form-url')).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('config-form-submit'));
    expect(await screen.findByText('Enter the link')).toBeInTheDocument();
    await waitFor(() => expect(feedback.warning).toHaveBeenCalledWith('Form verification failed, please check input!'));
    expect(onSubmit).not.toHaveBeenCalled();

    fireEvent.change(screen.getByTestId('config-form-url'), { target: { value: 'https://x.test' } });
    fireEvent.change(screen.getByTestId('config-form-title'), { target: { value: 'needs note' } });
    await waitFor(() => expect(screen.getByTestId('config-form-note-item').querySelector('.ant-form-item-required')).not.toBeNull());
    fireEvent.click(screen.getByTestId('config-form-submit'));
    expect(await screen.findByText('Note is required')).toBeInTheDocument();

    fireEvent.change(screen.getByTestId('config-form-note'), { target: { value: 'ok' } });
    fireEvent.click(screen.getByTestId('config-form-submit'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ type: 'link', title: 'needs note', url: 'https://x.test', note: 'ok' }));
  });

  it('uses the item value as the initial value and submits it', async () => {
    const onSubmit = vi.fn();
    renderPage(<ConfigForm items={[{ component: 'input', name: 'a', label: 'A', value: 'one' }, { component: 'switch', name: 'b', label: 'B', value: true }]} onSubmit={onSubmit} />);
    expect(screen.getByTestId('config-form-a')).toHaveValue('one');
    fireEvent.click(screen.getByTestId('config-form-submit'));
    await waitFor(() => expect(onSubmit).toHaveBeenCalledWith({ a: 'one', b: true }));
  });

  it('a broken expression neither hides nor requires', () => {
    renderPage(<ConfigForm items={[{ component: 'input', name: 'x', label: 'X', hideHandle: 'type ==' }]} />);
    expect(screen.getByTestId('config-form-x')).toBeInTheDocument();
  });

  it('keeps what the user typed before the defaults were applied (a fast typist on a loaded machine)', () => {
    // The form is on screen before its effects run: a field typed in that gap must not be reset.
    // A field's own effects run in exactly that gap (a child's before its form's), so one stands in for the typist.
    function TypedEarly(props: Record<string, unknown>) {
      const form = Form.useFormInstance();
      useEffect(() => {
        form.setFields([{ name: 'name', value: 'typed', touched: true }]);
      }, [form]);
      return <Input {...props} data-testid="config-form-name" />;
    }
    const typedEarly: ComponentRenderer = () => <TypedEarly />;
    renderPage(<ConfigForm items={[{ component: 'early', name: 'name', label: 'Name' }]} initialValues={{ name: '' }} components={{ early: typedEarly }} />);
    expect(screen.getByTestId('config-form-name')).toHaveValue('typed');
  });
});
