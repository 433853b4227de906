import { i18n } from './index';

/**
 * Adds texts of a part of the window that loads later (so the first pages do not carry them), in both languages.
 * As one bundle, merged, so that the keys stay whole as in the texts loaded first: adding them key by key would split
 * each at its dots, and a key that is also the start of others (`models.test`, `models.test.ok`) would lose one of them.
 */
export function addTexts<K extends string>(texts: { zh: Record<K, string>; en: Record<K, string> }): void {
  for (const locale of ['zh', 'en'] as const) i18n.addResourceBundle(locale, 'translation', texts[locale], true, false);
}
