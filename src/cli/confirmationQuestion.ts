import type { ToolConfirmationRequest } from '../shared/confirmation.js';
import { quotedWord, visibleInline } from '../shared/visibleText.js';

/** Asks one question on the terminal and gives the answer typed. */
export type Ask = (question: string) => Promise<string>;

export type ConfirmationAnswer = 'yes' | 'no' | 'always';

/** A value longer than this many lines is folded (the rest is counted and shown on `s`). */
const VALUE_LINES = 6;
/** Arguments listed before the rest are counted and shown on `s`. */
const LISTED_ARGUMENTS = 40;

interface Listing {
  lines: string[];
  /** Characters of values, and whole arguments, not shown. */
  hiddenCharacters: number;
  hiddenArguments: number;
}

/** `text` cut into lines of at most `width` characters (by code point, so no character is split). */
function wrap(text: string, width: number): string[] {
  const characters = [...text];
  const lines: string[] = [];
  for (let at = 0; at < characters.length; at += width) lines.push(characters.slice(at, at + width).join(''));
  return lines.length ? lines : [''];
}

/**
 * Every argument of a call as `key: value` lines: each key, and each value
 * as JSON on one logical line (a string's line breaks are `\n`, so nothing
 * it holds starts a line of its own), wrapped to the terminal's width. Not
 * `full`, a value past VALUE_LINES lines is folded and arguments past
 * LISTED_ARGUMENTS are counted, never cut silently.
 */
export function argumentLines(args: Readonly<Record<string, unknown>>, width: number, full: boolean): Listing {
  const lines: string[] = [];
  let hiddenCharacters = 0;
  const keys = Object.keys(args);
  const listed = full ? keys : keys.slice(0, LISTED_ARGUMENTS);
  const room = Math.max(20, width - 4);
  for (const key of listed) {
    const value = visibleInline(JSON.stringify(args[key]) ?? 'undefined');
    const wrapped = wrap(`${quotedWord(key)}: ${value}`, room);
    const shown = full || wrapped.length <= VALUE_LINES ? wrapped : wrapped.slice(0, VALUE_LINES - 1);
    lines.push(`  ${shown[0]}`, ...shown.slice(1).map((line) => `    ${line}`));
    if (shown.length < wrapped.length) {
      const hidden = wrapped.slice(shown.length).reduce((sum, line) => sum + [...line].length, 0);
      hiddenCharacters += hidden;
      lines.push(`    … ${hidden.toLocaleString('en')} more characters of ${quotedWord(key)}`);
    }
  }
  const hiddenArguments = keys.length - listed.length;
  if (hiddenArguments) lines.push(`  … and ${hiddenArguments.toLocaleString('en')} more arguments: ${keys.slice(listed.length, listed.length + 5).map(quotedWord).join(', ')}${hiddenArguments > 5 ? ', …' : ''}`);
  return { lines, hiddenCharacters, hiddenArguments };
}

/**
 * Asks whether a confirm-level call may run (DESIGN.md "CLI contract"): what
 * it is (the sentence written for the tool, else "Run TOOL on SERVER"), its
 * risk, and every argument (argumentLines). What is folded is said, and `s`
 * shows it all before asking again; anything but y (or a, where offered)
 * declines.
 */
export async function askConfirmation(ask: Ask, request: ToolConfirmationRequest, options: { always: boolean; width?: number }): Promise<ConfirmationAnswer> {
  // The terminal the question is written on (stderr); a width no terminal reports is a common one.
  const width = options.width ?? (process.stderr.columns || 100);
  const headline = visibleInline(request.customSummary ? request.summary : `Run ${request.toolName} on ${request.serverName}`);
  let listing = argumentLines(request.args, width, false);
  let intro = [`${headline} [${request.risk} risk]`, ...(Object.keys(request.args).length ? [`with ${Object.keys(request.args).length === 1 ? 'its argument' : `its ${Object.keys(request.args).length} arguments`}:`] : [])];
  for (;;) {
    const folded = listing.hiddenCharacters > 0 || listing.hiddenArguments > 0;
    const offers = ['y/N', ...(options.always ? ['a = always for this agent'] : []), ...(folded ? ['s = show all'] : [])];
    const hidden = folded ? [`  (not shown: ${[listing.hiddenCharacters ? `${listing.hiddenCharacters.toLocaleString('en')} characters` : '', listing.hiddenArguments ? `${listing.hiddenArguments.toLocaleString('en')} arguments` : ''].filter(Boolean).join(' and ')}; answer s to see everything before you decide)`] : [];
    const reply = (await ask([...intro, ...listing.lines, ...hidden, `run it? [${offers.join(', ')}] `].join('\n'))).trim().toLowerCase();
    if (reply === 'y' || reply === 'yes') return 'yes';
    if (options.always && (reply === 'a' || reply === 'always')) return 'always';
    if (!folded || (reply !== 's' && reply !== 'show')) return 'no';
    listing = argumentLines(request.args, width, true);
    intro = [`${headline} [${request.risk} risk], every argument in full:`];
  }
}
