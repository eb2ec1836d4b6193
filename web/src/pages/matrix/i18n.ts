/**
 * Texts of the matrix pages (namespace `matrix`), registered when the first of those pages loads rather
 * than with the entry chunk, like the widget kit's (components/i18n.ts).
 */
import { useTranslation } from 'react-i18next';
import i18n from '@/i18n';
import en from '@/locales/en/matrix.json';
import zhCN from '@/locales/zh-CN/matrix.json';

export const MATRIX_NS = 'matrix';
export const matrixResources = { 'zh-CN': zhCN, en } as const;

for (const [lng, bundle] of Object.entries(matrixResources)) {
  if (!i18n.hasResourceBundle(lng, MATRIX_NS)) i18n.addResourceBundle(lng, MATRIX_NS, bundle, true, true);
}

/** `t` bound to the matrix namespace (common keys reachable as `common:key`). */
export function useMatrixT() {
  return useTranslation(MATRIX_NS);
}

/** Outside React (plain modules). */
export function xt(key: string, options?: Record<string, unknown>): string {
  return i18n.t(key, { ns: MATRIX_NS, ...options });
}
