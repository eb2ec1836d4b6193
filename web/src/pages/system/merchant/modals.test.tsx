import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { MerchantRow } from '@/api/system/types';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import { MerchantFormModal } from './modals';

const row: MerchantRow = {
  id: 7,
  name: 'Sun Hat Co',
  username: 'sunhat',
  mobile: '13800138000',
  home_type: 2,
  points: 0,
  staff_count: 0,
  status: 1,
  created_at: 0,
  vip_expires_at: null,
};

let bodies: { path: string; body: Record<string, unknown> }[];

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
  bodies = [];
  mockFetch((url, init) => {
    bodies.push({ path: url.pathname, body: init.body ? JSON.parse(String(init.body)) : {} });
    return ok(row);
  });
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('operator merchant form', { timeout: 30_000 }, () => {
  it('does not show the mobile number on edit: the server keeps it (MerchantEdit has none)', async () => {
    const onSaved = vi.fn();
    renderPage(<MerchantFormModal open row={row} onClose={() => {}} onSaved={onSaved} />, { route: '/system/merchant' });
    await screen.findByTestId('merchant-name');
    expect(screen.queryByTestId('merchant-mobile')).toBeNull();
    expect(screen.queryByText('Mobile number')).toBeNull();
    fireEvent.click(screen.getByTestId('merchant-modal-ok'));
    await waitFor(() => expect(onSaved).toHaveBeenCalled());
    const edit = bodies.find((b) => b.path === '/api/system/merchant/edit');
    expect(edit?.body).toMatchObject({ id: 7, name: 'Sun Hat Co' });
    expect(edit?.body).not.toHaveProperty('mobile');
  });

  it('takes the owner mobile number when adding a merchant', async () => {
    renderPage(<MerchantFormModal open row={null} onClose={() => {}} onSaved={() => {}} />, { route: '/system/merchant' });
    expect(await screen.findByTestId('merchant-mobile')).toBeTruthy();
    expect(screen.getByText('Mobile number')).toBeTruthy();
  });
});
