import type { ToolContentItem } from '../../shared/chat.js';
import { DEFAULT_RESULT_CHARS } from '../../shared/mcp.js';

/**
 * How much of one tool result the model is sent (docs/rules/gateway.md#result-size).
 * The conversation keeps the whole result (its tool card shows it); only
 * what goes to the model is cut, when the request is built, with a note
 * saying what was left out and how to ask for less. Pure.
 */

/** Images a result sends the model, at most: each costs a fixed share of the window whatever its size, so they are counted apart from text. */
export const MAX_RESULT_IMAGES = 8;

/** One result as the model gets it: its items within the limits, and what was left out (none when nothing was). */
export interface CappedResult {
  items: ToolContentItem[];
  cut?: { totalChars: number; keptChars: number; droppedImages: number };
}

/** Characters of a kept item's text that count against the limit (a reminder is the host's, never cut). */
const counted = (item: ToolContentItem) => (item.type === 'text' || item.type === 'note' ? item.text.length : 0);

/** `text` cut to at most `chars` code units, never between the two halves of a surrogate pair. */
export function head(text: string, chars: number): string {
  const end = chars > 0 && /[\uD800-\uDBFF]/.test(text[chars - 1] ?? '') ? chars - 1 : chars;
  return text.slice(0, end);
}

/** The items of one result within `maxChars` of text and MAX_RESULT_IMAGES images, in their order. */
export function capResult(items: readonly ToolContentItem[], maxChars = DEFAULT_RESULT_CHARS): CappedResult {
  let totalChars = 0;
  let images = 0;
  for (const item of items) {
    totalChars += counted(item);
    if (item.type === 'image') images++;
  }
  if (totalChars <= maxChars && images <= MAX_RESULT_IMAGES) return { items: [...items] };
  const kept: ToolContentItem[] = [];
  let keptChars = 0;
  let cutHere = false;
  let keptImages = 0;
  for (const item of items) {
    if (item.type === 'image') {
      if (keptImages < MAX_RESULT_IMAGES) (keptImages++, kept.push(item));
      continue;
    }
    if (item.type === 'reminder') {
      kept.push(item);
      continue;
    }
    if (cutHere) continue;
    if (keptChars + item.text.length <= maxChars) {
      keptChars += item.text.length;
      kept.push(item);
      continue;
    }
    // The text ends where it was cut: no later item's start follows a cut one.
    const text = head(item.text, maxChars - keptChars);
    keptChars += text.length;
    cutHere = true;
    if (text) kept.push({ ...item, text });
  }
  return { items: kept, cut: { totalChars, keptChars, droppedImages: images - keptImages } };
}

const count = (n: number) => n.toLocaleString('en-US');

/** What the model is told in place of what was cut: how much, that the user has it all, and how to get the rest. */
export function cutNote(cut: NonNullable<CappedResult['cut']>): string {
  const parts: string[] = [];
  if (cut.totalChars > cut.keptChars)
    parts.push(`its text had ${count(cut.totalChars)} characters; only the first ${count(cut.keptChars)} are above (${count(cut.totalChars - cut.keptChars)} were left out)`);
  if (cut.droppedImages > 0) parts.push(`${cut.droppedImages} more image${cut.droppedImages === 1 ? ' was' : 's were'} left out (at most ${MAX_RESULT_IMAGES} are sent)`);
  return (
    `[This result was cut before it was sent to you: ${parts.join('; ')}. The user sees the whole result. ` +
    'If you need what was left out, call the tool again asking for less at a time (a narrower query, a filter, a page, a range or a limit), if its arguments allow it.]'
  );
}

/** The characters of a result's text the model is sent (a note included when it is cut): what the result costs in the window. */
export function sentChars(items: readonly ToolContentItem[], maxChars = DEFAULT_RESULT_CHARS): number {
  let total = 0;
  for (const item of items) total += item.type === 'image' ? 0 : item.text.length;
  return Math.min(total, maxChars + 400);
}
