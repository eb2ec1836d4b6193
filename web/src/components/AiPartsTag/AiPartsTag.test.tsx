import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { renderPage } from '@/test/utils';
import AiPartsTag from '.';

describe('AiPartsTag', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('names the generated parts and that the label stays, in both languages; nothing for own footage', async () => {
    for (const [lang, tip] of [
      ['zh-CN', 'AI 生成部分：AI 配音 / 一键成片（已加 AI 标识，不可去除）'],
      ['en', 'AI-generated parts: AI voice-over / one-touch (labelled; the label cannot be removed)'],
    ]) {
      await i18n.changeLanguage(lang);
      const { unmount } = renderPage(
        <>
          <AiPartsTag parts={['audio', 'video']} testId="ai" />
          <AiPartsTag parts={[]} testId="none" />
        </>,
        { route: '/videos' },
      );
      expect(screen.getByTestId('ai')).toHaveTextContent('AI');
      expect(screen.queryByTestId('none')).toBeNull();
      fireEvent.mouseEnter(screen.getByTestId('ai'));
      expect(await screen.findByText(tip)).toBeInTheDocument();
      unmount();
    }
  });
});
