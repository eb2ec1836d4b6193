/**
 * Texts of the material pages (namespace `materials`), registered when the first of those pages
 * loads rather than with the entry chunk, like the widget kit's (components/i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/materials.json';
import zhCN from '@/locales/zh-CN/materials.json';

export const MATERIALS_NS = 'materials';
export const materialResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(materialResources)) {
  if (!i18n.hasResourceBundle(lng, MATERIALS_NS)) i18n.addResourceBundle(lng, MATERIALS_NS, bundle, true, true);
}

/** `t` bound to the materials namespace (common keys reachable as `common:key`). */
export function useMaterialsT() {
  return useTranslation(MATERIALS_NS);
}

/** Outside React (plain modules). */
export function mt(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: MATERIALS_NS, ...options });
}
