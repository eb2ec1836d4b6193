/** Test helpers of the SEO pages: the fetch mock with its call log, and a router that shows where a page navigated. */
import { QueryClientProvider } from '@tanstack/react-query';
import { configure, fireEvent, render, screen } from '@testing-library/react';
import { App as AntApp } from 'antd';
import type { ReactElement } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { afterAll, afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { createQueryClient } from '@/App';
import i18n from '@/i18n';
import { mockFetch, ok, spyFeedback } from '@/test/utils';
import { setFeedback } from '@/utils/feedback';

export interface Call {
  path: string;
  body: Record<string, unknown>;
}

/** Every call is logged; `answer` gives the data of a path (`{}` when it returns undefined), or a Response. */
export function mockSeo(answer: (path: string, body: Record<string, unknown>) => unknown): Call[] {
  const calls: Call[] = [];
  mockFetch((url, init) => {
    const path = url.pathname.replace('/api', '');
    const body = init.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : Object.fromEntries(url.searchParams);
    calls.push({ path, body });
    const data = answer(path, body);
    return data instanceof Response ? data : ok(data ?? {});
  });
  return calls;
}

export const bodiesOf = (calls: Call[], path: string) => calls.filter((c) => c.path === path).map((c) => c.body);

function Where() {
  const loc = useLocation();
  return <div data-testid="navigated">{`${loc.pathname}${loc.search}`}</div>;
}

/** Renders the page at `route`; any other address shows itself in `navigated`. */
export function renderAt(ui: ReactElement, route: string) {
  const path = route.split('?')[0];
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <AntApp>
        <MemoryRouter initialEntries={[route]}>
          <Routes>
            <Route path={path} element={ui} />
            <Route path="*" element={<Where />} />
          </Routes>
        </MemoryRouter>
      </AntApp>
    </QueryClientProvider>,
  );
}

/** The input of an element by test id (antd puts some test ids on a wrapper). */
export function inputOf(testId: string): HTMLInputElement | HTMLTextAreaElement {
  const el = screen.getByTestId(testId);
  return (el.matches('input, textarea') ? el : el.querySelector('input, textarea')) as HTMLInputElement;
}

/** Types into an Input.Search and presses Enter. */
export function searchFor(testId: string, value: string) {
  const input = inputOf(testId);
  fireEvent.change(input, { target: { value } });
  fireEvent.keyDown(input, { key: 'Enter', code: 'Enter', keyCode: 13 });
}

/**
 * The hooks of an SEO page test: the texts in `lang`, the fetch mock answering with `answer` (its calls in
 * `ctx.calls`) and the feedback spies (`ctx.feedback`), undone after each test.
 */
export function setupSeoPage(answer: (path: string, body: Record<string, unknown>) => unknown, lang: 'en' | 'zh-CN' = 'en') {
  const ctx = { calls: [] as Call[], feedback: null as unknown as ReturnType<typeof spyFeedback> };
  beforeAll(async () => {
    configure({ asyncUtilTimeout: 5000 });
    await import('./i18n');
    await i18n.changeLanguage(lang);
  });
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });
  beforeEach(() => {
    ctx.feedback = spyFeedback();
    ctx.calls = mockSeo(answer);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    setFeedback(null);
  });
  return ctx;
}
