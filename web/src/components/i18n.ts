/**
 * Texts of the shared widget kit (namespace `widgets`). They are registered when the first widget
 * module loads instead of with the entry chunk: the sign-in page never loads a widget.
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/widgets.json';
import zhCN from '@/locales/zh-CN/widgets.json';

export const WIDGETS_NS = 'widgets';
export const widgetResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(widgetResources)) {
  if (!i18n.hasResourceBundle(lng, WIDGETS_NS)) i18n.addResourceBundle(lng, WIDGETS_NS, bundle, true, true);
}

/** `t` bound to the widgets namespace (common keys reachable as `common:key`). */
export function useWidgetsT() {
  return useTranslation(WIDGETS_NS);
}

/** Outside React (plain modules). */
export function wt(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: WIDGETS_NS, ...options });
}
