import '@testing-library/jest-dom/vitest';
import { cleanup, type RenderHookOptions, type RenderOptions } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { createElement, type ComponentType, type ReactElement, type ReactNode } from 'react';
import { afterEach, vi } from 'vitest';

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
