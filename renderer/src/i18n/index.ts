import i18next from 'i18next';
import { initReactI18next } from 'react-i18next';

export type Locale = 'zh' | 'en';

type ResourceFile = { default: Record<Locale, Record<string, string>> };

/**
 * Every `resources/*.ts` (one per area, keys prefixed by the file name) merged into the one `translation` namespace;
 * the texts of a card that loads lazily (LAZY_TEXTS) load with it, through `addTexts`, to keep the first screen light.
 */
const files = import.meta.glob<ResourceFile>(['./resources/*.ts', '!./resources/sampling.ts'], { eager: true });
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

/** A lazily loaded part's texts (a resource file left out of the eager set above), added when it loads. */
export function addTexts(texts: ResourceFile['default']): void {
  for (const locale of ['zh', 'en'] as const) i18next.addResourceBundle(locale, 'translation', texts[locale], true, false);
}
