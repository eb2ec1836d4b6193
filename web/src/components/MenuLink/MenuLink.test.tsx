import { render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { beforeAll, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { LinkedText } from '.';

describe('LinkedText', () => {
  beforeAll(async () => {
    await i18n.changeLanguage('zh-CN');
  });

  it('shows the pages a hint names by their menu names, as links, not as route paths', () => {
    render(
      <MemoryRouter>
        <p data-testid="hint">
          <LinkedText text="请在[[/account_auth]]中重新授权；来自[[/speak]]。" />
        </p>
      </MemoryRouter>,
    );
    const hint = screen.getByTestId('hint');
    expect(hint.textContent).not.toMatch(/\/speak|\/account_auth|\[\[/);
    expect(screen.getByTestId('menu-link-speak')).toHaveAttribute('href', '/speak');
    expect(screen.getByTestId('menu-link-speak').textContent).toBe(i18n.t('menu.speak', { ns: 'common' }));
    expect(screen.getByTestId('menu-link-account_auth').textContent).toBe(i18n.t('menu.accountAuth', { ns: 'common' }));
  });
});
