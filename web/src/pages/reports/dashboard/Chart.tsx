import type { EChartsCoreOption } from 'echarts/core';
import { useEffect, useRef } from 'react';

let echartsModule: Promise<typeof import('./echarts')> | null = null;
const loadEcharts = () => (echartsModule ??= import('./echarts'));

/** One ECharts canvas; the library is imported only when a chart mounts. */
export default function Chart({
  option,
  height = 260,
  dark,
  testId,
  className,
}: {
  option: EChartsCoreOption;
  /** px, or e.g. '100%' to fill a sized parent (the chart follows it) */
  height?: number | string;
  dark?: boolean;
  testId?: string;
  className?: string;
}) {
  const ref = useRef<HTMLDivElement>(null);

  useEffect(() => {
    let disposed = false;
    let dispose: (() => void) | undefined;
    void loadEcharts().then(({ echarts }) => {
      if (disposed || !ref.current) return;
      const chart = echarts.init(ref.current, dark ? 'dark' : undefined);
      chart.setOption({ backgroundColor: 'transparent', ...option });
      const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(() => chart.resize());
      observer?.observe(ref.current);
      dispose = () => {
        observer?.disconnect();
        chart.dispose();
      };
    });
    return () => {
      disposed = true;
      dispose?.();
    };
  }, [option, dark]);

  return <div ref={ref} className={className} style={{ height, width: '100%', minHeight: 0 }} data-testid={testId} />;
}
