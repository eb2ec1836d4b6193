import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import SimulatedTag from '.';

describe('SimulatedTag', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('marks simulated figures in both languages, saying how many accounts are the sandbox’s', async () => {
    await i18n.changeLanguage('zh-CN');
    const { rerender } = render(<SimulatedTag />);
    expect(screen.getByTestId('simulated-tag')).toHaveTextContent('模拟数据');
    await i18n.changeLanguage('en');
    rerender(<SimulatedTag accounts={2} testId="figures-simulated" />);
    const tag = screen.getByTestId('figures-simulated');
    expect(tag).toHaveTextContent('Simulated');
    expect(tag.dataset.source).toBe('sandbox');
    fireEvent.mouseEnter(tag);
    await waitFor(() => expect(screen.getByText(/2 of the accounts are authorized against the sandbox/)).toBeInTheDocument());
  });
});
