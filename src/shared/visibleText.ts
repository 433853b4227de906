/**
 * Text from outside (a model's answer, a tool's result, a plugin's env
 * value, an imported config's argument) shown as text, never obeyed.
 *
 * A terminal acts on control characters instead of showing them: ESC starts
 * sequences that set the clipboard (OSC 52), the window title (OSC 0) or
 * hide what follows (SGR 8); C1 characters (U+0080–U+009F) start the same
 * sequences in one character; a carriage return or backspaces rewrite what
 * is already on the line. Bidi overrides and isolates (U+202A–U+202E,
 * U+2066–U+2069) reorder what follows them, in a terminal and in a page.
 * Each is shown as its `\uXXXX` escape instead, which reads as what it is
 * and, inside a JSON string, means the same character, so `--json` output
 * keeps its data.
 */

/** Every character a terminal obeys, but a line break and a tab. */
const CONTROLS = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

/** The same, line breaks and tabs included: for what must stay on one line. */
const CONTROLS_AND_BREAKS = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;

const escaped = (character: string) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** `text` with every control character but line breaks and tabs made visible (a Windows line end is a line break). */
export function visibleControls(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROLS, escaped);
}

/** `text` with line breaks and tabs made visible as well: for a value inside one line. */
export function visibleInline(text: string): string {
  return text.replace(CONTROLS_AND_BREAKS, escaped);
}

/** A word that reads the same written bare: no space, quote, backslash or control character. */
const BARE = /^[^\s"'\\\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]+$/;

/**
 * One word of a command line (the program, an argument, an env value) as a
 * plan shows it: bare when it reads the same so, else quoted as JSON with
 * every control character escaped, so where one argument ends and what it
 * holds cannot be mistaken.
 */
export function quotedWord(word: string): string {
  return BARE.test(word) ? word : visibleInline(JSON.stringify(word));
}
