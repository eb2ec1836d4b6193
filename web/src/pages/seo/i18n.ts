/**
 * Texts of the SEO pages (namespace `seo`), registered when one of those pages (or the title dialog of
 * the release-task and quick-mix forms) loads rather than with the entry chunk, like the NFC page's.
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/seo.json';
import zhCN from '@/locales/zh-CN/seo.json';

export const SEO_NS = 'seo';
export const seoResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(seoResources)) {
  if (!i18n.hasResourceBundle(lng, SEO_NS)) i18n.addResourceBundle(lng, SEO_NS, bundle, true, true);
}

/** `t` bound to the seo namespace (common keys reachable as `common:key`). */
export function useSeoT() {
  return useTranslation(SEO_NS);
}
