import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage } from '@/test/utils';
import DictSelect from '.';

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
afterEach(() => vi.unstubAllGlobals());

describe('DictSelect (SPEC §3, §7)', () => {
  it('sends the dictionary name as parameter name and offers [{label, value}]', async () => {
    const fetch = mockFetch(() => ok([{ label: 'Success', value: 'success' }, { label: 'Failed', value: 'failed' }]));
    const onChange = vi.fn();
    renderPage(<DictSelect name="log_result" onChange={onChange} />, { route: '/d', path: '/d' });
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    const url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/system/dic');
    expect(url.searchParams.get('name')).toBe('log_result');
    fireEvent.mouseDown(within(screen.getByTestId('dict-log_result')).getByRole('combobox'));
    fireEvent.click(await screen.findByText('Failed'));
    expect(onChange.mock.calls[0][0]).toBe('failed');
  });

  it('one request per dictionary for several selects', async () => {
    const fetch = mockFetch(() => ok([{ label: 'GET', value: 'GET' }]));
    renderPage(
      <>
        <DictSelect name="http_method" testId="a" />
        <DictSelect name="http_method" testId="b" multiple />
      </>,
      { route: '/d', path: '/d' },
    );
    await waitFor(() => expect(fetch).toHaveBeenCalledTimes(1));
    expect(screen.getByTestId('b').className).toContain('ant-select-multiple');
  });
});
