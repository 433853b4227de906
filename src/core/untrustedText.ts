/**
 * Text another party wrote, set inside a tag the host writes (a server's
 * instructions, a memory: docs/rules/security.md#text-models-read), escaped as XML text is: every `&` and
 * every `<`. No spelling of a closing tag survives (`</ tag >`, `< /tag>`,
 * a zero-width character inside it): without a `<` there is no tag, so the
 * text cannot end its block and go on as the host. The model still reads
 * the text whole.
 */
export function escapedMarkup(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;');
}

/**
 * Text one party wrote that another party's model reads (docs/rules/security.md#text-models-read):
 * an agent's name and description in the sub-agent tool that runs it, a
 * knowledge base's in `knowledge_search`. A model reads a tool's description
 * as documentation, so such text goes in as data: quoted as a JSON string
 * (no quote, line break or control character of its own ends it) and cut to
 * a bound, saying how much was left out.
 */

/** Characters of a name kept where another model reads it. */
export const QUOTED_NAME_CHARS = 200;
/** Characters of a description kept where another model reads it. */
export const QUOTED_DESCRIPTION_CHARS = 1000;

/** `text` as a JSON string of at most `maxChars` of its characters (never cut inside one), noting what was left out. */
export function quotedData(text: string, maxChars: number): string {
  const chars = Array.from(text);
  if (chars.length <= maxChars) return JSON.stringify(text);
  return `${JSON.stringify(chars.slice(0, maxChars).join(''))} (${(chars.length - maxChars).toLocaleString('en')} more characters left out)`;
}
