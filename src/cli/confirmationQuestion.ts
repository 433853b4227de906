import type { ToolConfirmationRequest } from '../shared/confirmation.js';
import { quotedWord, visibleInline } from '../shared/visibleText.js';

/** Asks one question on the terminal and gives the answer typed. */
export type Ask = (question: string) => Promise<string>;

/** The same terminal, one question at a time: a question asked while another waits for its line is asked after it. */
export function oneAtATime(ask: Ask): Ask {
  let last: Promise<unknown> = Promise.resolve();
  return (question) => {
    const next = last.then(() => ask(question));
    last = next.catch(() => {});
    return next;
  };
}

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

/**
 * The first `maxLines` lines of `text`, cut at `width` characters (by code
 * point, so no character is split), and how many characters follow them;
 * a huge value is counted, never copied whole.
 */
function wrap(text: string, width: number, maxLines: number): { lines: string[]; rest: number } {
  const lines: string[] = [];
  let line = '';
  let length = 0;
  let rest = 0;
  for (const character of text) {
    if (lines.length === maxLines) {
      rest++;
      continue;
    }
    line += character;
    if (++length === width) {
      lines.push(line);
      line = '';
      length = 0;
    }
  }
  if (line || !lines.length) lines.push(line);
  return { lines, rest };
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
    const text = `${quotedWord(key)}: ${visibleInline(JSON.stringify(args[key]) ?? 'undefined')}`;
    const wrapped = wrap(text, room, full ? Infinity : VALUE_LINES);
    // Past VALUE_LINES: the last line shown gives way to the count of what is folded.
    const shown = wrapped.rest ? wrapped.lines.slice(0, VALUE_LINES - 1) : wrapped.lines;
    lines.push(`  ${shown[0]}`, ...shown.slice(1).map((line) => `    ${line}`));
    if (wrapped.rest) {
      const hidden = room + wrapped.rest;
      hiddenCharacters += hidden;
      lines.push(`    … ${hidden.toLocaleString('en')} more characters of this value`);
    }
  }
  const hiddenArguments = keys.length - listed.length;
  if (hiddenArguments) lines.push(`  … and ${hiddenArguments.toLocaleString('en')} more arguments`);
  return { lines, hiddenCharacters, hiddenArguments };
}

/**
 * Asks whether a confirm-level call may run (docs/reference/cli.md#exit-codes-and-output): what
 * it is (the sentence written for the tool, else "Run TOOL on SERVER"), its
 * risk, and every argument (argumentLines). What is folded is said, and `s`
 * shows it all before asking again; anything but y (or a, where offered)
 * declines.
 */
export async function askConfirmation(ask: Ask, request: ToolConfirmationRequest, options: { always: boolean; width?: number }): Promise<ConfirmationAnswer> {
  // The terminal the question is written on (stderr); a width no terminal reports is a common one.
  const width = options.width ?? (process.stderr.columns || 100);
  const headline = visibleInline(request.customSummary ? request.summary : `Run ${request.toolName} on ${request.serverName}`);
  const count = Object.keys(request.args).length;
  let listing = argumentLines(request.args, width, false);
  let intro = [`${headline} [${request.risk} risk]`, ...(count ? [`with ${count === 1 ? 'its argument' : `its ${count} arguments`}:`] : [])];
  for (;;) {
    const folded = listing.hiddenCharacters > 0 || listing.hiddenArguments > 0;
    const offers = ['y/N', ...(options.always ? ['a = always for this agent'] : []), ...(folded ? ['s = show all'] : [])];
    const parts = [
      listing.hiddenCharacters ? `${listing.hiddenCharacters.toLocaleString('en')} characters` : '',
      listing.hiddenArguments ? `${listing.hiddenArguments.toLocaleString('en')} arguments` : '',
    ].filter(Boolean);
    const hidden = folded ? [`  (not shown: ${parts.join(' and ')}; answer s to see everything before you decide)`] : [];
    const reply = (await ask([...intro, ...listing.lines, ...hidden, `run it? [${offers.join(', ')}] `].join('\n'))).trim().toLowerCase();
    if (reply === 'y' || reply === 'yes') return 'yes';
    if (options.always && (reply === 'a' || reply === 'always')) return 'always';
    if (!folded || (reply !== 's' && reply !== 'show')) return 'no';
    listing = argumentLines(request.args, width, true);
    intro = [`${headline} [${request.risk} risk], every argument in full:`];
  }
}
