import { render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Plan } from '@/api/clip/types';
import i18n from '@/i18n';
import PlanView from './PlanView';

beforeAll(async () => {
  await import('../i18n');
  await i18n.changeLanguage('en');
});

const plan: Plan = {
  capacity_before: 8,
  capacity_after: 5,
  max_use: 2,
  min_use: 1,
  max_spread: 1,
  balanced: true,
  points: 6,
  max_shared: 1,
  slots: 3,
  lacking: [],
  sequences: [
    [
      { id: 1, name: 'open-a' },
      { id: 3, name: 'mid-a' },
      { id: 5, name: 'end-a' },
    ],
    [
      { id: 2, name: 'open-b' },
      { id: 4, name: 'mid-b' },
      { id: 5, name: 'end-a' },
    ],
    [
      { id: 1, name: 'open-a' },
      { id: 4, name: 'mid-b' },
      { id: 6, name: '' },
    ],
  ],
};

describe('plan preview', () => {
  it('shows each sequence with its clip names in order, the use spread, capacity and points', () => {
    render(<PlanView plan={plan} />);
    expect(screen.getByTestId('plan-count')).toHaveTextContent('3');
    expect(screen.getByTestId('plan-points')).toHaveTextContent('6');
    expect(screen.getByTestId('plan-capacity')).toHaveTextContent('8 → 5');
    expect(screen.getByTestId('plan-max-use')).toHaveTextContent('2');
    expect(screen.getByTestId('plan-min-use')).toHaveTextContent('1');
    expect(screen.getByTestId('plan-balanced')).toHaveTextContent('balanced');
    const first = screen.getByTestId('plan-seq-0');
    expect(within(first).getAllByText(/^(open|mid|end)-/).map((e) => e.textContent)).toEqual(['open-a', 'mid-a', 'end-a']);
    expect(first).toHaveTextContent('1open-a→mid-a→end-a');
    expect(screen.getByTestId('plan-seq-1')).toHaveTextContent('open-b→mid-b→end-a');
    // a clip without a name shows its id
    expect(screen.getByTestId('plan-seq-2')).toHaveTextContent('open-a→mid-b→#6');
  });

  it('flags an uneven plan', () => {
    render(<PlanView plan={{ ...plan, balanced: false, max_spread: 3 }} testId="p" />);
    expect(screen.getByTestId('p-spread')).toHaveTextContent('3 uneven');
  });
});
