import { htmlToText } from '../knowledge/htmlText.js';

/**
 * A fetched HTML page as Markdown for the model, with turndown (a
 * well-kept HTML → Markdown converter over its own server-side DOM,
 * domino): headings, links, lists, code and tables stay readable, scripts
 * and styles go. turndown walks the DOM recursively, so a page nested
 * deeper than the stack allows falls back to the knowledge base's text
 * extraction (knowledge/htmlText.ts, bounded depth), said in the answer.
 */

type Converter = { turndown(html: string): string };

let converter: Promise<Converter> | undefined;

/** turndown and its DOM are loaded on the first page, not with the host. */
function loadConverter(): Promise<Converter> {
  converter ??= import('turndown').then(({ default: TurndownService }) => {
    const service = new TurndownService({ headingStyle: 'atx', codeBlockStyle: 'fenced', bulletListMarker: '-' });
    service.remove(['script', 'style', 'noscript', 'template', 'iframe', 'object', 'embed', 'head']);
    return service;
  });
  return converter;
}

export async function htmlToMarkdown(html: string): Promise<{ markdown: string; note?: string }> {
  const service = await loadConverter();
  try {
    return { markdown: service.turndown(html).trim() };
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { markdown: htmlToText(html).text.trim(), note: 'the page is nested too deeply to convert to Markdown; this is its text alone' };
  }
}
