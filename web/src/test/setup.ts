import '@testing-library/jest-dom/vitest';
import { cleanup, configure, type RenderHookOptions, type RenderOptions } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { createElement, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { afterEach, beforeAll, beforeEach, vi } from 'vitest';
import { DEFAULT_LANGUAGE } from '@/config';
import i18n, { changeLanguage } from '@/i18n';
import { charts } from './echarts';

// antd's runtime CSS-in-JS writes a style sheet per component, and jsdom re-reads every sheet on each
// getComputedStyle: about 40 % of a page test's time. jsdom lays nothing out, so the tests render
// with antd's zero-runtime theme (no style generation); every render gets it as its outer wrapper.
vi.mock('@testing-library/react', async (importOriginal) => {
  const rtl = await importOriginal<typeof import('@testing-library/react')>();
  const zeroRuntime = (inner?: ComponentType<{ children: ReactNode }>) =>
    function ZeroRuntime({ children }: { children: ReactNode }) {
      return createElement(
        ConfigProvider,
        { theme: { zeroRuntime: true } },
        inner ? createElement(inner, null, children) : children,
      );
    };
  const render = ((ui: ReactElement, options?: RenderOptions) =>
    rtl.render(ui, { ...options, wrapper: zeroRuntime(options?.wrapper) })) as typeof rtl.render;
  const renderHook = ((cb: (props: unknown) => unknown, options?: RenderHookOptions<unknown>) =>
    rtl.renderHook(cb, { ...options, wrapper: zeroRuntime(options?.wrapper) })) as typeof rtl.renderHook;
  return { ...rtl, render, renderHook };
});

// The report pages' charts draw into a recorder (jsdom has no canvas): src/test/echarts.ts.
vi.mock('@/pages/reports/dashboard/echarts', async () => ({ echarts: (await import('./echarts')).echartsStandIn }));
beforeEach(() => charts.clear());

// antd reads media queries and observes sizes; jsdom has neither.
Object.defineProperty(window, 'matchMedia', {
  writable: true,
  configurable: true,
  value: vi.fn().mockImplementation((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  })),
});

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, configurable: true, value: ResizeObserverStub });
}

// jsdom's getComputedStyle does not support pseudo elements (antd's scrollbar measure asks for them)
const { getComputedStyle } = window;
window.getComputedStyle = (elt: Element) => getComputedStyle(elt);

afterEach(() => {
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});

// The files of a worker share their modules (vite.config.ts: isolate false), so each file starts as it
// would alone: in the default language (a file that switched to English must not leave the next one in
// it), with one wait limit for every file (a loaded machine needs more than RTL's default 1 s).
configure({ asyncUtilTimeout: 5000 });
beforeAll(async () => {
  if (i18n.language !== DEFAULT_LANGUAGE) await changeLanguage(DEFAULT_LANGUAGE);
});
