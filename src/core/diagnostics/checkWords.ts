/**
 * A check's summary and fix as keys with their values, beside the English
 * text: the CLI prints the text, the Diagnostics page says the keys in the
 * user's language (renderer/src/i18n/lazy/diagnosticsSaid.ts).
 */
export function said(summary: string, params: Record<string, string> = {}, fix?: string): { words: { summary: string; fix?: string; params: Record<string, string> } } {
  return { words: { summary, params, ...(fix ? { fix } : {}) } };
}
