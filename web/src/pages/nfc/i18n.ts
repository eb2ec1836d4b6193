/**
 * Texts of the NFC tap-to-post page (namespace `nfc`), registered when the page loads rather than with
 * the entry chunk, like the matrix pages' (pages/matrix/i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/nfc.json';
import zhCN from '@/locales/zh-CN/nfc.json';

export const NFC_NS = 'nfc';
export const nfcResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(nfcResources)) {
  if (!i18n.hasResourceBundle(lng, NFC_NS)) i18n.addResourceBundle(lng, NFC_NS, bundle, true, true);
}

/** `t` bound to the nfc namespace (common keys reachable as `common:key`). */
export function useNfcT() {
  return useTranslation(NFC_NS);
}

/** Outside React (plain modules). */
export function nfcT(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: NFC_NS, ...options });
}
