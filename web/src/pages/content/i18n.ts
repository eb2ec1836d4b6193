/**
 * Texts of the content pages (operator and course pages) (namespace `content`), registered when the page loads rather than with
 * the entry chunk, like the matrix pages' (pages/matrix/i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/content.json';
import zhCN from '@/locales/zh-CN/content.json';

export const CONTENT_NS = 'content';
export const contentResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(contentResources)) {
  if (!i18n.hasResourceBundle(lng, CONTENT_NS)) i18n.addResourceBundle(lng, CONTENT_NS, bundle, true, true);
}

/** `t` bound to the content namespace (common keys reachable as `common:key`). */
export function useContentT() {
  return useTranslation(CONTENT_NS);
}

/** Outside React (plain modules). */
export function contentT(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: CONTENT_NS, ...options });
}
