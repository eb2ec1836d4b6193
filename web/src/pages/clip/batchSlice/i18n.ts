/**
 * Texts of the batch-slice page (namespace `slice`), registered when the page loads, like the clip
 * pages' texts (../i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/slice.json';
import zhCN from '@/locales/zh-CN/slice.json';

export const SLICE_NS = 'slice';
export const sliceResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(sliceResources)) {
  if (!i18n.hasResourceBundle(lng, SLICE_NS)) i18n.addResourceBundle(lng, SLICE_NS, bundle, true, true);
}

/** `t` bound to the slice namespace (common keys reachable as `common:key`). */
export function useSliceT() {
  return useTranslation(SLICE_NS);
}
