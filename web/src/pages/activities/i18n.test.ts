import { expect, it } from 'vitest';
import i18n, { resources } from '@/i18n';

it('the activity and NFC texts are not in the entry bundle; they register when their pages load', async () => {
  for (const ns of ['activities', 'nfc']) {
    expect(Object.keys(resources.en)).not.toContain(ns);
    expect(i18n.hasResourceBundle('zh-CN', ns)).toBe(false);
  }
  const { actT } = await import('./i18n');
  const { nfcT } = await import('../nfc/i18n');
  expect(i18n.hasResourceBundle('zh-CN', 'activities')).toBe(true);
  expect(i18n.hasResourceBundle('en', 'nfc')).toBe(true);
  await i18n.changeLanguage('zh-CN');
  expect(actT('tabs.coupons')).toBe('优惠券核销');
  expect(nfcT('platform.dy')).toBe('抖音');
  expect(i18n.t('menu.events')).toBe('抽奖活动');
  await i18n.changeLanguage('en');
  expect(actT('tabs.draws')).toBe('Draw log');
  expect(nfcT('poolKind.group')).toBe('Video library group');
  expect(i18n.t('menu.nfc')).toBe('NFC tap-to-post');
});
