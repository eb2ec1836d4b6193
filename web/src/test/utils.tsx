import { QueryClientProvider } from '@tanstack/react-query';
import { App as AntApp } from 'antd';
import { fireEvent, render, waitFor } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { expect, vi, type Mock } from 'vitest';
import { createQueryClient } from '@/App';
import { setFeedback, type Feedback } from '@/utils/feedback';

export function json(body: unknown, status = 200, statusText = ''): Response {
  return new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    statusText,
    headers: { 'content-type': 'application/json' },
  });
}

export const ok = (data: unknown) => json({ code: 200, message: 'ok', data });

export type FetchHandler = (url: URL, init: RequestInit) => Response | Promise<Response>;

/** Replaces global fetch; returns the mock so calls can be inspected. */
export function mockFetch(handler: FetchHandler): Mock {
  const fn = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = new URL(String(input), 'http://localhost');
    return handler(url, init);
  });
  vi.stubGlobal('fetch', fn);
  return fn;
}

export function spyFeedback() {
  const spies = {
    success: vi.fn(),
    error: vi.fn(),
    warning: vi.fn(),
    notifyError: vi.fn(),
    confirm: vi.fn(),
  } satisfies Record<keyof Feedback, Mock>;
  setFeedback(spies);
  return spies;
}

export function renderPage(
  ui: ReactElement,
  { route = '/', path = '*', others = {} }: { route?: string; path?: string; others?: Record<string, ReactElement> } = {},
) {
  const client = createQueryClient();
  return render(
    <QueryClientProvider client={client}>
      <AntApp>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="/" element={<div data-testid="home-page">home</div>} />
            {/* pages a test navigates to */}
            {Object.entries(others).map(([p, el]) => (
              <Route key={p} path={p} element={el} />
            ))}
          </Routes>
        </MemoryRouter>
      </AntApp>
    </QueryClientProvider>,
  );
}

/**
 * Ticks an option of an antd Checkbox.Group. The group learns its options in an effect after they render
 * and drops a tick that comes before (options that arrive with a query): tick until the tick holds.
 */
export async function tickGroupOption(option: HTMLElement) {
  const box = (option.closest('label')?.querySelector('input[type=checkbox]') ?? option) as HTMLInputElement;
  await waitFor(() => {
    if (!box.checked) fireEvent.click(box);
    expect(box).toBeChecked();
  });
}
