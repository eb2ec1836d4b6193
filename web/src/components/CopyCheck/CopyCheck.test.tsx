import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import i18n from '@/i18n';
import { mockFetch, ok, renderPage } from '@/test/utils';
import CopyCheckHints, { applySuggestion } from '.';
import type { CopyFinding } from '@/api/compliance';

const best: CopyFinding = {
  start: 5,
  end: 7,
  term: '最好',
  rule_id: 'ad.absolute.superlative',
  kind: 'absolute',
  severity: 'block',
  source: 'Advertising Law, Art. 9(3)',
  explanation: "Ads must not use absolute terms such as 'the best' (superlatives)",
  suggestion: '很好',
};

describe('CopyCheckHints', () => {
  afterEach(() => vi.unstubAllGlobals());
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('asks the server after typing stops and shows the finding, its rule and source, and applies the suggestion', async () => {
    await i18n.changeLanguage('en');
    const fetch = mockFetch((url, init) => {
      expect(url.pathname).toBe('/api/index/copyCheck');
      const body = JSON.parse(String(init.body)) as { text: string; platforms: string[] };
      expect(body.platforms).toEqual(['dy']);
      return ok({ findings: body.text.includes('最好') ? [best] : [], blocked: body.text.includes('最好') });
    });
    const onApply = vi.fn();
    renderPage(<CopyCheckHints text="这是我们店最好的火锅" platforms={['dy']} onApply={onApply} testId="t" />, { route: '/form' });
    const finding = await screen.findByTestId('t-finding');
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(finding).toHaveAttribute('data-rule', 'ad.absolute.superlative');
    expect(finding).toHaveAttribute('data-severity', 'block');
    expect(finding).toHaveTextContent('Not allowed');
    expect(finding).toHaveTextContent('「最好」');
    expect(finding).toHaveTextContent('Source: Advertising Law, Art. 9(3)');
    fireEvent.click(screen.getByTestId('t-apply'));
    expect(onApply).toHaveBeenCalledWith('这是我们店很好的火锅');
  });

  it('speaks Chinese and shows a warning without an apply button when no rewrite is safe', async () => {
    await i18n.changeLanguage('zh-CN');
    mockFetch(() => ok({ findings: [{ ...best, severity: 'warn', term: '最', end: 6, suggestion: null, source: '广告法 第九条(三)' }], blocked: false }));
    renderPage(<CopyCheckHints text="成都最美的夜景" onApply={() => undefined} testId="w" />, { route: '/form' });
    const finding = await screen.findByTestId('w-finding');
    expect(finding).toHaveTextContent('请确认');
    expect(finding).toHaveTextContent('依据：广告法 第九条(三)');
    expect(screen.queryByTestId('w-apply')).toBeNull();
  });

  it('asks nothing for a blank text', async () => {
    const fetch = mockFetch(() => ok({ findings: [], blocked: false }));
    const { container } = renderPage(<CopyCheckHints text="   " />, { route: '/form' });
    await new Promise((r) => setTimeout(r, 500));
    expect(fetch).not.toHaveBeenCalled();
    await waitFor(() => expect(container.querySelector('[role="status"]')).toBeNull());
  });

  it('applies a suggestion where the words are now when the text changed since the check', () => {
    expect(applySuggestion('这是我们店最好的火锅', best)).toBe('这是我们店很好的火锅');
    expect(applySuggestion('新：这是我们店最好的火锅', best)).toBe('新：这是我们店很好的火锅');
    expect(applySuggestion('全删了', best)).toBe('全删了');
    expect(applySuggestion('最好', { ...best, start: 0, end: 2, suggestion: null })).toBe('最好');
  });
});
