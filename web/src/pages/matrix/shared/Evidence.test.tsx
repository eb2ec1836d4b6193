import { fireEvent, screen } from '@testing-library/react';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Item } from '@/api/matrix/types';
import i18n from '@/i18n';
import { renderPage } from '@/test/utils';
import { ItemStateTag } from './tags';

beforeAll(async () => {
  await import('../i18n');
});

const item = (over: Partial<Item>): Pick<Item, 'id' | 'state' | 'error' | 'evidence'> => ({
  id: 7,
  state: 'failed',
  error: '上传超时',
  evidence: null,
  ...over,
});

const evidence = {
  step: 'upload',
  url: 'https://creator.xiaohongshu.com/publish/publish',
  screenshot: '/files/7/evidence?e=1&s=a',
  html: '/files/7/evidence_html?e=1&s=b',
};

describe('ItemStateTag with a failed browser step', () => {
  it('offers the screenshot, naming the step in either language', async () => {
    await i18n.changeLanguage('zh-CN');
    renderPage(<ItemStateTag item={item({ evidence })} />, { route: '/send' });
    fireEvent.click(screen.getByTestId('item-evidence-7'));
    const step = await screen.findByTestId('item-evidence-step-7');
    expect(step.textContent).toBe('上传');
    expect(step.dataset.step).toBe('upload');
    expect(screen.getByText('失败时的页面：上传')).toBeInTheDocument();
    expect(screen.getByText(evidence.url)).toBeInTheDocument();
    expect(screen.getByAltText('上传失败时的页面截图').getAttribute('src')).toBe(evidence.screenshot);
    expect(screen.getByTestId('item-evidence-html-7').getAttribute('href')).toBe(evidence.html);
  });

  it('in English, and a step the console page gained shows its code', async () => {
    await i18n.changeLanguage('en');
    renderPage(<ItemStateTag item={item({ evidence: { ...evidence, step: 'captcha' } })} />, { route: '/send' });
    expect(screen.getByTestId('item-evidence-7').textContent).toContain('Screenshot');
    fireEvent.click(screen.getByTestId('item-evidence-7'));
    expect((await screen.findByTestId('item-evidence-step-7')).textContent).toBe('captcha');
    expect(screen.getByText('View the page HTML')).toBeInTheDocument();
  });

  it('shows no button when no browser step failed', async () => {
    renderPage(<ItemStateTag item={item({})} />, { route: '/send' });
    expect(screen.getByTestId('item-state-7').dataset.state).toBe('failed');
    expect(screen.queryByTestId('item-evidence-7')).toBeNull();
  });
});

describe("ItemStateTag of a post its platform's page check holds back", () => {
  it('shows it waiting and paused, with the reason', async () => {
    await i18n.changeLanguage('zh-CN');
    const paused = '已暂停：平台页面检查未通过（上传失败），检查通过或运营恢复后继续发布';
    renderPage(<ItemStateTag item={{ ...item({ state: 'to_release', error: '' }), paused }} />, { route: '/send' });
    expect(screen.getByTestId('item-state-7').dataset.state).toBe('to_release');
    const tag = screen.getByTestId('item-paused-7');
    expect(tag.textContent).toBe('已暂停');
    expect(tag.dataset.reason).toBe(paused);
  });
});
