import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import WriterTag from '.';

describe('WriterTag', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('says which writer produced a result, in both languages', async () => {
    await i18n.changeLanguage('en');
    const { rerender } = render(<WriterTag source={{ kind: 'llm', model: 'gpt-4o-mini', fallback_reason: '' }} />);
    expect(screen.getByTestId('writer-tag')).toHaveTextContent('LLM: gpt-4o-mini');
    expect(screen.getByTestId('writer-tag')).toHaveAttribute('data-kind', 'llm');
    rerender(<WriterTag source={{ kind: 'built_in', model: '', fallback_reason: '' }} />);
    expect(screen.getByTestId('writer-tag')).toHaveTextContent('Built-in');
    expect(screen.getByTestId('writer-tag')).not.toHaveAttribute('data-reason');
    await i18n.changeLanguage('zh-CN');
    rerender(<WriterTag source={{ kind: 'built_in', model: '', fallback_reason: '' }} />);
    expect(screen.getByTestId('writer-tag')).toHaveTextContent('内置');
    rerender(<WriterTag source={{ kind: 'llm', model: 'qwen', fallback_reason: '' }} />);
    expect(screen.getByTestId('writer-tag')).toHaveTextContent('LLM: qwen');
  });

  it('shows why the built-in writer stood in for a failing AI service', async () => {
    await i18n.changeLanguage('en');
    render(<WriterTag source={{ kind: 'built_in', model: '', fallback_reason: 'the AI service answered 429: Rate limit reached' }} testId="titles-writer" />);
    const tag = screen.getByTestId('titles-writer');
    expect(tag).toHaveTextContent('Built-in');
    expect(tag).toHaveAttribute('data-reason', 'the AI service answered 429: Rate limit reached');
    fireEvent.mouseEnter(tag);
    await waitFor(() => expect(screen.getByText(/The AI service failed, so the built-in writer wrote this: the AI service answered 429/)).toBeInTheDocument());
  });

  it('shows nothing without a source', () => {
    const { container } = render(<WriterTag source={undefined} />);
    expect(container).toBeEmptyDOMElement();
  });
});
