/** A 7-day trend drawn as a small inline SVG line (no chart library per table row). */
export function sparkPoints(values: readonly number[], width: number, height: number): string {
  if (!values.length) return '';
  const lo = Math.min(...values);
  const hi = Math.max(...values);
  const step = values.length > 1 ? width / (values.length - 1) : 0;
  return values
    .map((v, i) => {
      const y = hi > lo ? height - 2 - ((v - lo) / (hi - lo)) * (height - 4) : height / 2;
      return `${Math.round(i * step * 10) / 10},${Math.round(y * 10) / 10}`;
    })
    .join(' ');
}

export default function Sparkline({ values, width = 90, height = 24, testId }: { values: readonly number[]; width?: number; height?: number; testId?: string }) {
  const rising = values.length > 1 && values[values.length - 1] >= values[0];
  return (
    <svg width={width} height={height} viewBox={`0 0 ${width} ${height}`} role="img" aria-hidden data-testid={testId} style={{ display: 'block' }}>
      <polyline points={sparkPoints(values, width, height)} fill="none" stroke={rising ? '#f5222d' : '#52c41a'} strokeWidth={1.5} strokeLinejoin="round" />
    </svg>
  );
}
