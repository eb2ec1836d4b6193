import { fireEvent, screen, waitFor } from '@testing-library/react';
import { beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Account } from '@/api/matrix/types';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage, spyFeedback } from '@/test/utils';
import { PROXY_PATTERN } from '../rules';
import { AccountEditModal } from './AccountModals';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const account = (over: Partial<Account>): Account =>
  ({
    id: 4,
    platform: 'xhs',
    nickname: 'Tea shop',
    account_type: 'personal',
    group_id: 0,
    remarks: '',
    proxy: '',
    ...over,
  }) as Account;

let posts: { path: string; body: Record<string, unknown> }[];

beforeEach(() => {
  spyFeedback();
  posts = [];
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? JSON.parse(String(init.body)) : {};
    posts.push({ path, body });
    return ok(account({ proxy: 'http://10.0.0.1:8080' }));
  });
});

describe('the account dialog', () => {
  it('sets a console account’s proxy before the rest, and only when it changed', async () => {
    renderPage(<AccountEditModal account={account({})} groups={[]} onClose={() => undefined} onSaved={() => undefined} />, { route: '/accounts' });
    const input = await screen.findByTestId('account-edit-proxy');
    fireEvent.change(input, { target: { value: 'ftp://10.0.0.1:21' } });
    fireEvent.click(screen.getByTestId('account-edit-ok'));
    expect(await screen.findByText('A proxy is http://[user:pass@]host:port or socks5://host:port')).toBeInTheDocument();
    expect(posts).toHaveLength(0);

    fireEvent.change(input, { target: { value: 'http://bob:pw@10.0.0.1:8080' } });
    fireEvent.click(screen.getByTestId('account-edit-ok'));
    await waitFor(() => expect(posts.map((p) => p.path)).toEqual(['/task.merchant_group_user/update_proxy', '/task.merchant_group_user/user_save']));
    expect(posts[0].body).toEqual({ id: 4, proxy: 'http://bob:pw@10.0.0.1:8080' });
  });

  it('leaves the proxy alone when it is unchanged, and has none for an open-API account', async () => {
    renderPage(<AccountEditModal account={account({ proxy: 'http://10.0.0.1:8080' })} groups={[]} onClose={() => undefined} onSaved={() => undefined} />, { route: '/accounts' });
    expect(((await screen.findByTestId('account-edit-proxy')) as HTMLInputElement).value).toBe('http://10.0.0.1:8080');
    fireEvent.click(screen.getByTestId('account-edit-ok'));
    await waitFor(() => expect(posts.map((p) => p.path)).toEqual(['/task.merchant_group_user/user_save']));
  });

  it('shows no proxy field for a Douyin account', async () => {
    renderPage(<AccountEditModal account={account({ platform: 'dy' })} groups={[]} onClose={() => undefined} onSaved={() => undefined} />, { route: '/accounts' });
    await screen.findByTestId('account-edit-remarks');
    expect(screen.queryByTestId('account-edit-proxy')).toBeNull();
  });
});

describe('PROXY_PATTERN (the server’s rule, domain::matrix::proxy)', () => {
  it('takes http(s) with credentials and socks5 without', () => {
    for (const ok of ['http://10.0.0.5:8080', 'https://bob:pw@proxy.example.com:3128/', 'socks5://10.0.0.5:1080']) expect(PROXY_PATTERN.test(ok)).toBe(true);
    for (const bad of ['10.0.0.5:8080', 'ftp://10.0.0.5:21', 'http://10.0.0.5', 'http://10.0.0.5:0', 'http://10.0.0.5:8080/path', 'socks5://bob:pw@10.0.0.5:1080'])
      expect(PROXY_PATTERN.test(bad)).toBe(false);
  });
});
