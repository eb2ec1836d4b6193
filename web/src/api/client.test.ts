import { afterEach, describe, expect, it, vi } from 'vitest';
import { mockFetch, ok } from '@/test/utils';
import { api, type Body } from './client';

/** Every source file of the console, as text (tests and the wrapper itself aside). */
const sources = import.meta.glob(['../**/*.{ts,tsx}', '!../**/*.test.{ts,tsx}', '!./request.ts'], {
  query: '?raw',
  import: 'default',
  eager: true,
}) as Record<string, string>;

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('typed client', () => {
  it('sends a POST body as JSON and answers the envelope data', async () => {
    const fetch = mockFetch(() => ok({ id: 7, name: 'n' }));
    const body: Body<'/task.merchant_matrix_group/add'> = { name: 'n' };
    const group = await api.post('/task.merchant_matrix_group/add', body);
    expect(group).toEqual({ id: 7, name: 'n' });
    const [url, init] = fetch.mock.calls[0] as [string, RequestInit];
    expect(url).toBe('/api/task.merchant_matrix_group/add');
    expect(init.method).toBe('POST');
    expect(JSON.parse(String(init.body))).toEqual({ name: 'n' });
  });

  it('sends a GET input as the query string', async () => {
    const fetch = mockFetch(() => ok([]));
    await api.get('/system/dic', { name: 'job_kind' });
    const url = new URL(String(fetch.mock.calls[0][0]), 'http://localhost');
    expect(url.pathname).toBe('/api/system/dic');
    expect(url.searchParams.get('name')).toBe('job_kind');
  });

  it('refuses, at the typecheck, a path the server does not serve and a body of the wrong shape', () => {
    // Never called: the lines below only have to fail `tsc` (npm run typecheck).
    const never = () => {
      // @ts-expect-error not a path of the document
      void api.post('/task.merchant_matrix_group/nope', { name: 'n' });
      // @ts-expect-error the group's name is required
      void api.post('/task.merchant_matrix_group/add', {});
      // @ts-expect-error the group's name is a string
      void api.post('/task.merchant_matrix_group/add', { name: 1 });
    };
    expect(typeof never).toBe('function');
  });

  it('is the only way the areas call the server (no path bound to a type by hand)', () => {
    const byHand = Object.entries(sources)
      .filter(([, text]) => /\bhttp\.(get|post|put|patch|delete)\s*[<(]/.test(text))
      .map(([file]) => file);
    expect(byHand).toEqual([]);
    expect(Object.keys(sources).length).toBeGreaterThan(100);
  });
});
