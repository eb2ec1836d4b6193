import { expect, it } from 'vitest';
import i18n, { resources } from '@/i18n';

it('the material texts are not in the entry bundle; they register when a material page loads', async () => {
  expect(Object.keys(resources.en)).not.toContain('materials');
  expect(i18n.hasResourceBundle('en', 'materials')).toBe(false);
  const { mt } = await import('./i18n');
  expect(i18n.hasResourceBundle('en', 'materials')).toBe(true);
  expect(i18n.hasResourceBundle('zh-CN', 'materials')).toBe(true);
  await i18n.changeLanguage('en');
  expect(mt('group.ungrouped')).toBe('Ungrouped');
  await i18n.changeLanguage('zh-CN');
  expect(mt('group.ungrouped')).toBe('未分组');
});
