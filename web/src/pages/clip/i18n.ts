/**
 * Texts of the editing pages (namespace `clip`), registered when the first of those pages loads rather
 * than with the entry chunk, like the widget kit's (components/i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/clip.json';
import zhCN from '@/locales/zh-CN/clip.json';

export const CLIP_NS = 'clip';
export const clipResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(clipResources)) {
  if (!i18n.hasResourceBundle(lng, CLIP_NS)) i18n.addResourceBundle(lng, CLIP_NS, bundle, true, true);
}

/** `t` bound to the clip namespace (common keys reachable as `common:key`). */
export function useClipT() {
  return useTranslation(CLIP_NS);
}

/** Outside React (plain modules). */
export function ct(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: CLIP_NS, ...options });
}
