/**
 * Texts of the lottery activity pages (namespace `activities`), registered when the first of those pages
 * loads rather than with the entry chunk, like the matrix pages' (pages/matrix/i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/activities.json';
import zhCN from '@/locales/zh-CN/activities.json';

export const ACTIVITIES_NS = 'activities';
export const activityResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(activityResources)) {
  if (!i18n.hasResourceBundle(lng, ACTIVITIES_NS)) i18n.addResourceBundle(lng, ACTIVITIES_NS, bundle, true, true);
}

/** `t` bound to the activities namespace (common keys reachable as `common:key`). */
export function useActivitiesT() {
  return useTranslation(ACTIVITIES_NS);
}

/** Outside React (plain modules). */
export function actT(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: ACTIVITIES_NS, ...options });
}
