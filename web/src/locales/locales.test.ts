import { describe, expect, it } from 'vitest';
import { widgetResources } from '@/components/i18n';
import { resources } from '@/i18n';
import { activityResources } from '@/pages/activities/i18n';
import { materialResources } from '@/pages/materials/i18n';
import { matrixResources } from '@/pages/matrix/i18n';
import { nfcResources } from '@/pages/nfc/i18n';
import { seoResources } from '@/pages/seo/i18n';

function keys(obj: Record<string, unknown>, prefix = ''): string[] {
  return Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? keys(v as Record<string, unknown>, `${prefix}${k}.`) : [`${prefix}${k}`],
  );
}

describe('locales', () => {
  it('zh-CN and en have the same areas and keys', () => {
    const zh = resources['zh-CN'];
    const en = resources.en;
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    for (const ns of Object.keys(zh)) {
      expect(keys(en[ns]).sort(), ns).toEqual(keys(zh[ns]).sort());
    }
  });

  it('keeps the SPEC texts', () => {
    expect(resources['zh-CN'].common.copySuccess).toBe('复制成功');
    const en = resources.en.common as Record<string, Record<string, string>>;
    expect(en.request.notFound).toBe('Status:404, requesting a server record that does not exist!');
    expect(en.request.noResponse).toBe('Request server did not respond!');
    expect(en.validation.passwordMismatch).toBe('The passwords entered twice are inconsistent');
    expect(en.route.vipOnly).toBe('This function is a membership function, please recharge VIP');
  });

  it('the widget kit texts (loaded with the widgets) have the same keys in both languages', () => {
    expect(keys(widgetResources.en).sort()).toEqual(keys(widgetResources['zh-CN']).sort());
  });

  it('the material pages\' texts (loaded with those pages) have the same keys in both languages', () => {
    expect(keys(materialResources.en).sort()).toEqual(keys(materialResources['zh-CN']).sort());
  });

  it('the matrix pages\' texts (loaded with those pages) have the same keys in both languages', () => {
    expect(keys(matrixResources.en).sort()).toEqual(keys(matrixResources['zh-CN']).sort());
  });

  it('names every matrix menu in both languages', () => {
    for (const lng of ['en', 'zh-CN'] as const) {
      const menu = (resources[lng].common as Record<string, Record<string, string>>).menu;
      for (const key of ['matrix', 'sendManagement', 'accountAuth', 'accountClassify', 'authMature', 'userLibrary', 'auditCheck', 'systemApp'])
        expect(menu[key], `${lng} menu.${key}`).toBeTruthy();
    }
  });

  it('the activity and NFC pages\' texts (loaded with those pages) have the same keys in both languages', () => {
    expect(keys(activityResources.en).sort()).toEqual(keys(activityResources['zh-CN']).sort());
    expect(keys(nfcResources.en).sort()).toEqual(keys(nfcResources['zh-CN']).sort());
  });

  it('names the activity and NFC menus in both languages, as the server titles them', () => {
    const menu = (lng: 'en' | 'zh-CN') => (resources[lng].common as Record<string, Record<string, string>>).menu;
    expect([menu('zh-CN').events, menu('zh-CN').nfc]).toEqual(['抽奖活动', 'NFC 碰一碰']);
    expect([menu('en').events, menu('en').nfc]).toEqual(['Lottery activities', 'NFC tap-to-post']);
  });

  it('the SEO pages\' texts (loaded with those pages) have the same keys in both languages, and every SEO menu is named', () => {
    expect(keys(seoResources.en).sort()).toEqual(keys(seoResources['zh-CN']).sort());
    for (const lng of ['en', 'zh-CN'] as const) {
      const menu = (resources[lng].common as Record<string, Record<string, string>>).menu;
      for (const key of ['seo', 'aiHome', 'keySearch', 'keyExcavate', 'keywordsNum', 'keywordsNewTitle', 'keyswordSetting', 'accountSee', 'newAiTitle'])
        expect(menu[key], `${lng} menu.${key}`).toBeTruthy();
    }
  });

  it('names every material menu in both languages', () => {
    for (const lng of ['en', 'zh-CN'] as const) {
      const menu = (resources[lng].common as Record<string, Record<string, string>>).menu;
      for (const key of ['material', 'video', 'speak', 'music', 'image', 'font', 'systemMusic']) expect(menu[key], `${lng} menu.${key}`).toBeTruthy();
    }
  });

  it('keeps the SPEC texts of the widget kit', () => {
    const en = widgetResources.en;
    expect(en.upload.notImage).toBe('upload file warning: the selected file is not an image');
    expect(en.upload.tooLarge).toBe('upload file size cannot exceed {{n}}MB!');
    expect(en.upload.overLimit).toBe('at most {{limit}} files, remove some and upload again');
    expect(en.upload.removeConfirm).toBe('remove {{name}}?');
    expect(en.upload.failed).toBe('upload file failed');
    expect(en.upload.unknownError).toBe('unknown error');
    expect(en.filter.title).toBe('filter');
    expect(en.filter.noItems).toBe('no filter items');
    expect(en.filter.nameRequired).toBe('name cannot be empty');
    expect(en.filter.deleteConfirm).toBe('confirm delete this common filter?');
    expect(en.filter.deleted).toBe('deleted common filter successfully');
    expect(en.filter.savedAs).toBe('{{name}} saved common filter successfully');
    expect(en.form.componentNotFound).toBe('[{{type}}] Component not found');
  });
});
