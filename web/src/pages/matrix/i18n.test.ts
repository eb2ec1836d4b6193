import { expect, it } from 'vitest';
import i18n, { resources } from '@/i18n';

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

it('the matrix texts are not in the entry bundle; they register when a matrix page loads, with the same keys in both languages', async () => {
  expect(Object.keys(resources.en)).not.toContain('matrix');
  expect(i18n.hasResourceBundle('en', 'matrix')).toBe(false);
  const { xt, matrixResources } = await import('./i18n');
  expect(keys(matrixResources.en).sort()).toEqual(keys(matrixResources['zh-CN']).sort());
  expect(i18n.hasResourceBundle('zh-CN', 'matrix')).toBe(true);
  await i18n.changeLanguage('en');
  expect(xt('itemState.released')).toBe('Video released');
  expect(i18n.t('menu.sendManagement')).toBe('Release tasks');
  await i18n.changeLanguage('zh-CN');
  expect(xt('review.reviewing')).toBe('审核中');
  expect(i18n.t('menu.accountAuth')).toBe('账号授权');
  expect(i18n.t('menu.matrix')).toBe('矩阵');
});
