/** Texts of the engagement pages (namespace `engagement`), registered when one of them loads. */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/engagement.json';
import zhCN from '@/locales/zh-CN/engagement.json';

export const ENGAGEMENT_NS = 'engagement';

for (const [lng, bundle] of Object.entries({ 'zh-CN': zhCN, en })) {
  if (!i18n.hasResourceBundle(lng, ENGAGEMENT_NS)) i18n.addResourceBundle(lng, ENGAGEMENT_NS, bundle, true, true);
}

/** `t` bound to the engagement namespace (common keys reachable as `common:key`). */
export function useEngagementT() {
  return useTranslation(ENGAGEMENT_NS);
}
