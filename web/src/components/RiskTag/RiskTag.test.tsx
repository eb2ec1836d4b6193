import { fireEvent, screen } from '@testing-library/react';
import { afterAll, describe, expect, it } from 'vitest';
import i18n from '@/i18n';
import { renderPage } from '@/test/utils';
import RiskTag, { riskLevel } from '.';

describe('RiskTag', () => {
  afterAll(async () => {
    await i18n.changeLanguage('en');
  });

  it('shows the score by its band and the reasons in words, in both languages; a dash when not measured', async () => {
    for (const [lang, tag, sibling, upload] of [
      ['zh-CN', '高 84', '与同项目 #12：共用 3/4 个镜头，画面 75% 相同，声音 100% 相同，文字 100% 相同（84 分）', '与已发布的上传视频：画面 100% 相同，声音 97% 相同（99 分）'],
      [
        'en',
        'High 84',
        'Like #12 of this project: 3 of 4 clips shared, 75% of the pictures alike, 100% of the sound alike, 100% of the text alike (84)',
        'Like a published upload: 100% of the pictures alike, 97% of the sound alike (99)',
      ],
    ]) {
      await i18n.changeLanguage(lang);
      const { unmount } = renderPage(
        <>
          <RiskTag
            risk={84}
            level="high"
            reasons={[
              { against: 'sibling', other_id: 12, score: 84, visual: 75, audio: 100, text: 100, shared_clips: [3, 4] },
              { against: 'published', other_id: 0, score: 99, visual: 100, audio: 97 },
            ]}
            testId="risk"
          />
          <RiskTag risk={null} level={null} reasons={[]} testId="none" />
        </>,
        { route: '/videos' },
      );
      expect(screen.getByTestId('risk')).toHaveTextContent(tag);
      expect(screen.getByTestId('risk')).toHaveAttribute('data-level', 'high');
      expect(screen.getByTestId('none')).toHaveTextContent('—');
      fireEvent.mouseEnter(screen.getByTestId('risk'));
      expect(await screen.findByText(sibling)).toBeInTheDocument();
      expect(screen.getByText(upload)).toBeInTheDocument();
      unmount();
    }
  });

  it('bands a bare score like the server', () => {
    expect([riskLevel(0), riskLevel(39), riskLevel(40), riskLevel(69), riskLevel(70), riskLevel(100)]).toEqual(['low', 'low', 'medium', 'medium', 'high', 'high']);
  });
});
