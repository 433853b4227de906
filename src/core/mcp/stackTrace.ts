import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';

/**
 * docs/rules/gateway.md#no-stack-traces: an error text a server wrote (a
 * failed result's text, a JSON-RPC error's message, the stderr a crash
 * leaves) reaches the model and the user without the stack trace it may
 * carry: file paths and frames tell the model nothing it can act on, cost
 * tokens and show the server's insides. The error's own words stay; each
 * run of frames becomes one short mark. One pass over the lines.
 */

/** A JavaScript (V8, SpiderMonkey-style `at`) or Java frame: `at fn (file:12:5)`, `at file:12:5`, `at x (native)`, `at async Promise.all (index 0)`. */
const AT_FRAME = /^\s+at\s.*(?::\d+(?::\d+)?\)?|<anonymous>\)?|\(native\)|\(index \d+\)|\(Native Method\)|\(Unknown Source\))\s*$/;
/** Java's `... 12 more` after its frames. */
const MORE_FRAMES = /^\s+\.\.\. \d+ more\s*$/;
/** Python's header, and its `File "…", line N, in fn` frames (each followed by the source line, indented deeper). */
const PY_HEADER = /^\s*Traceback \(most recent call last\):\s*$/;
const PY_FRAME = /^(\s*)File "[^"]*", line \d+(?:, in [^\n]*)?$/;
/** Longer lines are never frames: what a regex is tried on stays short, whatever a server writes. */
export const MAX_FRAME_CHARS = 2_000;

export const STACK_MARK = '[stack trace left out]';

/** `text` without its stack frames: each run of them (a Python traceback's header and source lines with it) becomes STACK_MARK. */
export function withoutStackTraces(text: string): string {
  // Most error texts have no frame at all: nothing to split or copy.
  if (!/\n[ \t]*(?:at\s|File "|Traceback \(|\.\.\. \d+ more)/.test(`\n${text}`)) return text;
  const lines = text.split('\n');
  const kept: string[] = [];
  let inRun = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const short = line.length <= MAX_FRAME_CHARS;
    const python = short ? PY_FRAME.exec(line) : null;
    const frame = short && (python !== null || PY_HEADER.test(line) || AT_FRAME.test(line) || MORE_FRAMES.test(line));
    if (!frame) {
      inRun = false;
      kept.push(line);
      continue;
    }
    // A Python frame's source line is indented deeper than the frame: it goes with it.
    const next = lines[i + 1];
    if (python && next !== undefined && next.length <= MAX_FRAME_CHARS && indentOf(next) > python[1]!.length && !PY_FRAME.test(next)) i++;
    if (!inRun) kept.push(`${/^\s*/.exec(line)![0]}${STACK_MARK}`);
    inRun = true;
  }
  return kept.join('\n');
}

const indentOf = (line: string) => /^\s*/.exec(line)![0].length;

/** A failed result with its text items' stack traces left out (the same object when it had none, or did not fail). */
export function failedResultWithoutStacks(result: CallToolResult): CallToolResult {
  if (!result.isError || !Array.isArray(result.content)) return result;
  let changed = false;
  const content = result.content.map((item) => {
    if (item.type !== 'text') return item;
    const text = withoutStackTraces(item.text);
    if (text === item.text) return item;
    changed = true;
    return { ...item, text };
  });
  return changed ? { ...result, content } : result;
}
