/** Texts of the AI voice page (namespace `ai`), registered when the page loads. */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/ai.json';
import zhCN from '@/locales/zh-CN/ai.json';

export const AI_NS = 'ai';
export const aiResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(aiResources)) {
  if (!i18n.hasResourceBundle(lng, AI_NS)) i18n.addResourceBundle(lng, AI_NS, bundle, true, true);
}

/** `t` bound to the ai namespace (common keys reachable as `common:key`). */
export function useAiT() {
  return useTranslation(AI_NS);
}
