import { expect, it } from 'vitest';
import i18n, { resources } from '@/i18n';

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) => (v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`]));
}

it('the clip texts are not in the entry bundle; they register when an editing page loads, with the same keys in both languages', async () => {
  expect(Object.keys(resources.en)).not.toContain('clip');
  expect(i18n.hasResourceBundle('en', 'clip')).toBe(false);
  const { ct, clipResources } = await import('./i18n');
  expect(keys(clipResources.en).sort()).toEqual(keys(clipResources['zh-CN']).sort());
  expect(i18n.hasResourceBundle('zh-CN', 'clip')).toBe(true);
  await i18n.changeLanguage('en');
  expect(ct('state.processing')).toBe('Synthesizing');
  expect(i18n.t('menu.pieceRep')).toBe('Finished videos');
  await i18n.changeLanguage('zh-CN');
  expect(ct('state.processing')).toBe('合成中');
  expect(i18n.t('menu.normalMode')).toBe('快速混剪');
  expect(i18n.t('menu.clip')).toBe('剪辑');
});
