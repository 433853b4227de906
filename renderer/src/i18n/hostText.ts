import { i18n } from './index';

/** A host message (an API error, a problem) as the window says it. */
export interface HostText {
  message: string;
  hint?: string;
  /** The host's own English text, when the window said it in its own words instead. */
  original?: { message: string; hint?: string };
}

/**
 * The window's words for a coded host message. In English the host's own
 * text is shown (it names the exact file, field and fix). In Chinese the
 * code's text is shown when there is one (`hostError.<CODE>`, `hostFix.<CODE>`),
 * and the host's text is kept as `original`, for a person who wants the
 * details; a code without a text falls back to the host's words.
 */
export function hostText(coded: { code: string; message: string; hint?: string }): HostText {
  const own = { message: coded.message, ...(coded.hint ? { hint: coded.hint } : {}) };
  if (i18n.language !== 'zh' || !i18n.exists(`hostError.${coded.code}`, { lng: 'zh' })) return own;
  const fixKey = `hostFix.${coded.code}`;
  return { message: i18n.t(`hostError.${coded.code}`), ...(i18n.exists(fixKey, { lng: 'zh' }) ? { hint: i18n.t(fixKey) } : {}), original: own };
}
