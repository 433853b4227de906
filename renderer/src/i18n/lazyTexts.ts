import { i18n } from './index';

/** Adds texts of a part of the window that loads later (so the first pages do not carry them), in both languages. */
export function addTexts<K extends string>(texts: { zh: Record<K, string>; en: Record<K, string> }): void {
  i18n.addResources('zh', 'translation', texts.zh);
  i18n.addResources('en', 'translation', texts.en);
}
