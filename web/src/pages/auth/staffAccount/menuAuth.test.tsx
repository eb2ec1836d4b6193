import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { StaffRow } from '@/api/auth/types';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';
import MenuAuthModal, { menuNodeTestId } from './MenuAuthModal';

const node = (id: number, path: string, children: unknown[] = []) => ({ id, path, name: '', icon: '', hidden: false, admin: false, vip: false, permission: [], children });
const tree = [
  node(1, '/dashboard'),
  node(2, '/matrix', [node(3, '/send_management'), node(4, '/account_auth'), node(5, '/account_classify')]),
  node(6, '/material', [node(7, '/video'), node(8, '/music')]),
];
const staff: StaffRow = { id: 9, username: 'clerk', nickname: 'Clerk', mobile: null, status: 1, menu_ids: [], role_ids: [], created_at: 1, last_login_at: null };

let saved: unknown[] = [];
function serve(checked: number[]) {
  saved = [];
  mockFetch(async (_url, init) => {
    if (init.method === 'POST') {
      saved.push(JSON.parse(String(init.body)));
      return ok({ checked: [] });
    }
    return ok({ tree, checked });
  });
}

/** The antd checkbox state of a menu node: checked, half (indeterminate) or none. */
function state(path: string): 'checked' | 'half' | 'none' {
  const box = screen.getByTestId(menuNodeTestId(path)).closest('.ant-tree-treenode')!.querySelector('.ant-tree-checkbox')!;
  if (box.classList.contains('ant-tree-checkbox-checked')) return 'checked';
  if (box.classList.contains('ant-tree-checkbox-indeterminate')) return 'half';
  return 'none';
}

beforeAll(async () => {
  await i18n.changeLanguage('en');
});
beforeEach(() => {
  spyFeedback();
});
afterEach(() => {
  vi.unstubAllGlobals();
  setFeedback(null);
});

describe('menu authorization tree', { timeout: 60_000 }, () => {
  it('reopened with one child and its parent stored: the parent is half-checked, the siblings stay unticked', async () => {
    serve([2, 3]);
    renderPage(<MenuAuthModal staff={staff} onClose={() => {}} />, { route: '/staffAccount', path: '/staffAccount' });
    await screen.findByTestId(menuNodeTestId('/send_management'));
    expect(state('/send_management')).toBe('checked');
    expect(state('/matrix')).toBe('half');
    expect(state('/account_auth')).toBe('none');
    expect(state('/account_classify')).toBe('none');
    expect(state('/material')).toBe('none');
  });

  it('saving a change sends exactly the ticked menus, never the unticked siblings', async () => {
    serve([2, 3]);
    renderPage(<MenuAuthModal staff={staff} onClose={() => {}} />, { route: '/staffAccount', path: '/staffAccount' });
    fireEvent.click(await screen.findByTestId(menuNodeTestId('/dashboard')));
    expect(state('/dashboard')).toBe('checked');
    fireEvent.click(screen.getByTestId('auth-menu-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ id: 9, menu_ids: [1, 3] });
  });

  it('saving unchanged keeps what was granted; a ticked group grants its children', async () => {
    serve([3, 8]);
    renderPage(<MenuAuthModal staff={staff} onClose={() => {}} />, { route: '/staffAccount', path: '/staffAccount' });
    await screen.findByTestId(menuNodeTestId('/music'));
    expect(state('/material')).toBe('half');
    fireEvent.click(screen.getByTestId('auth-menu-save'));
    await waitFor(() => expect(saved).toHaveLength(1));
    expect(saved[0]).toEqual({ id: 9, menu_ids: [3, 8] });

    fireEvent.click(screen.getByTestId(menuNodeTestId('/material')));
    expect(state('/video')).toBe('checked');
    fireEvent.click(screen.getByTestId('auth-menu-save'));
    await waitFor(() => expect(saved).toHaveLength(2));
    expect(saved[1]).toEqual({ id: 9, menu_ids: [3, 7, 8] });
  });
});
