import { vi } from 'vitest';

/**
 * jsdom has no canvas, so every test draws its charts into this recorder (setup.ts puts it in place of
 * the report pages' ECharts build): a test reads what was asked of it. One recorder for all files,
 * because the test files share their modules (isolate: false) and a chart component keeps the
 * ECharts module it was first loaded with.
 */
export const charts = {
  init: vi.fn(),
  setOption: vi.fn(),
  registerMap: vi.fn(),
  clear() {
    charts.init.mockClear();
    charts.setOption.mockClear();
    charts.registerMap.mockClear();
  },
};

export const echartsStandIn = {
  init: (...args: unknown[]) => (charts.init(...args), { setOption: charts.setOption, resize: vi.fn(), dispose: vi.fn() }),
  registerMap: (...args: unknown[]) => charts.registerMap(...args),
};
