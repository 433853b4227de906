import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export type Locale = 'zh' | 'en';

type ResourceFile = { default: Record<Locale, Record<string, string>> };

/**
 * Every `resources/*.ts` (keys prefixed by the file name) merged into the one `translation` namespace: the texts
 * the shell says (common) and the host's error texts, which any page may show. Each page's or card's own texts are
 * in `lazy/*.ts`, one file per area, and arrive with the parts that say them (each imports `load/<area>`), so the
 * first screen does not carry every page's texts in both languages (they were ~50 KB gzip of it);
 * test/renderer/lazyTexts.test.ts checks that every part saying them imports them.
 */
const files = import.meta.glob<ResourceFile>('./resources/*.ts', { eager: true });
const translations: Record<Locale, Record<string, string>> = { zh: {}, en: {} };
for (const file of Object.values(files)) {
  Object.assign(translations.zh, file.default.zh);
  Object.assign(translations.en, file.default.en);
}

const STORAGE_KEY = 'chatos.locale';

/** The user's last choice, else the system language: zh* → zh, anything else → en. */
export function initialLocale(): Locale {
  const stored = localStorage.getItem(STORAGE_KEY);
  if (stored === 'zh' || stored === 'en') return stored;
  return navigator.language.toLowerCase().startsWith('zh') ? 'zh' : 'en';
}

export function rememberLocale(locale: Locale): void {
  localStorage.setItem(STORAGE_KEY, locale);
}

void i18next.use(initReactI18next).init({
  resources: { zh: { translation: translations.zh }, en: { translation: translations.en } },
  lng: initialLocale(),
  fallbackLng: 'en',
  interpolation: { escapeValue: false },
});

export const i18n = i18next;
