import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from '@/config';
import { storage } from '@/utils/storage';

/**
 * One JSON per area per language: locales/{zh-CN,en}/<area>.json. The shared widget kit's texts
 * (widgets.json) load with the widgets themselves (components/i18n.ts), and the material pages' texts
 * (materials.json) with those pages (pages/materials/i18n.ts), the editing pages' (clip.json) likewise
 * (pages/clip/i18n.ts), the matrix pages' (matrix.json, pages/matrix/i18n.ts), the lottery activities'
 * (activities.json, pages/activities/i18n.ts), the NFC page's (nfc.json, pages/nfc/i18n.ts), the SEO
 * pages' (seo.json, pages/seo/i18n.ts) and the content pages' (content.json, pages/content/i18n.ts), so the
 * sign-in page stays small.
 */
const files = import.meta.glob<{ default: Record<string, unknown> }>(['../locales/*/*.json', '!../locales/*/widgets.json', '!../locales/*/materials.json', '!../locales/*/clip.json', '!../locales/*/matrix.json', '!../locales/*/activities.json', '!../locales/*/nfc.json', '!../locales/*/seo.json', '!../locales/*/content.json'], {
  eager: true,
});

const resources: Record<string, Record<string, Record<string, unknown>>> = {};
for (const [path, mod] of Object.entries(files)) {
  const match = /locales\/([^/]+)\/([^/]+)\.json$/.exec(path);
  if (!match) continue;
  const [, lng, ns] = match;
  resources[lng] ??= {};
  resources[lng][ns] = mod.default;
}

export const namespaces = Object.keys(resources[DEFAULT_LANGUAGE] ?? { common: {} });

export function storedLanguage(): Language {
  const value = storage.get<string>('lang');
  return (LANGUAGES as readonly string[]).includes(value ?? '') ? (value as Language) : DEFAULT_LANGUAGE;
}

/** The accept-language header value: stored language or zh-cn. */
export function acceptLanguage(): string {
  return storedLanguage().toLowerCase();
}

export async function changeLanguage(lng: Language): Promise<void> {
  storage.set('lang', lng);
  document.documentElement.lang = lng;
  await i18n.changeLanguage(lng);
}

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: DEFAULT_LANGUAGE,
  supportedLngs: [...LANGUAGES],
  ns: namespaces,
  defaultNS: 'common',
  fallbackNS: 'common',
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

export { resources };
export default i18n;
