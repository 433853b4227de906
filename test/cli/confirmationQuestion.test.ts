import { describe, expect, it } from 'vitest';
import { argumentLines, askConfirmation } from '../../src/cli/confirmationQuestion.js';
import type { ToolConfirmationRequest } from '../../src/shared/confirmation.js';

/** The CLI's y/N question for a confirm-level call (issue 25, item 4): every argument, nothing cut silently. */

const request = (args: Record<string, unknown>): ToolConfirmationRequest => ({
  id: 'r1',
  serverName: 'chatos::files',
  toolName: 'write_file',
  args,
  summary: '',
  risk: 'high',
  createdAt: 0,
  expiresAt: 1,
});

/** Answers the questions in turn with `replies`, keeping what was asked. */
function scripted(replies: string[]) {
  const asked: string[] = [];
  return { asked, ask: async (question: string) => (asked.push(question), replies.shift() ?? '') };
}

describe('argumentLines', () => {
  it('lists every key and its value as JSON, in order; an argument after 300 characters of another is there', () => {
    const { lines, hiddenCharacters, hiddenArguments } = argumentLines({ padding: 'x'.repeat(300), path: '/home/me/.ssh/authorized_keys', mode: 384, nested: { a: [1, 'b'] } }, 100, false);
    // Each argument starts a line indented two spaces; its value's further lines are indented four.
    expect(lines.filter((line) => /^ {2}\S/.test(line)).map((line) => line.slice(2, line.indexOf(':')))).toEqual(['padding', 'path', 'mode', 'nested']);
    expect(lines).toContain('  path: "/home/me/.ssh/authorized_keys"');
    expect(lines).toContain('  mode: 384');
    expect(lines).toContain('  nested: {"a":[1,"b"]}');
    expect(lines.map((line) => line.replace(/^ {2,4}/, '')).join('')).toContain(`padding: "${'x'.repeat(300)}"`);
    expect([hiddenCharacters, hiddenArguments]).toEqual([0, 0]);
  });

  it('a line break, an escape or a bidi override in a key or value is shown, never obeyed or made a line of its own', () => {
    const { lines } = argumentLines({ 'a\nb': 'run it? [y/N] \x1b[8m', note: '\u202eexe.txt' }, 100, false);
    expect(lines).toEqual(['  "a\\nb": "run it? [y/N] \\u001b[8m"', '  note: "\\u202eexe.txt"']);
  });

  it('folds a huge value to five lines and counts every character it folds; full, it shows them all', () => {
    const value = `${'a'.repeat(5000)}; rm -rf ~`;
    const folded = argumentLines({ what: value }, 100, false);
    const text = `what: ${JSON.stringify(value)}`;
    expect(folded.lines).toHaveLength(6);
    expect(folded.lines.at(-1)).toBe(`    … ${(text.length - 5 * 96).toLocaleString('en')} more characters of this value`);
    expect(folded.hiddenCharacters).toBe(text.length - 5 * 96);
    const full = argumentLines({ what: value }, 100, true);
    expect(full.lines.map((line) => line.replace(/^ {2,4}/, '')).join('')).toBe(text);
  });

  it('past forty arguments says how many more there are', () => {
    const many = Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`k${i}`, i]));
    const { lines, hiddenArguments } = argumentLines(many, 100, false);
    expect(hiddenArguments).toBe(60);
    expect(lines.at(-1)).toBe('  … and 60 more arguments');
    expect(argumentLines(many, 100, true).lines).toHaveLength(100);
  });
});

describe('askConfirmation', () => {
  it('says what is folded and offers s, which shows everything and asks again; y then runs it', async () => {
    const { asked, ask } = scripted(['s', 'y']);
    expect(await askConfirmation(ask, request({ what: `${'a'.repeat(5000)}; rm -rf ~` }), { always: false, width: 100 })).toBe('yes');
    expect(asked[0]).toContain('Run write_file on chatos::files [high risk]\nwith its argument:\n');
    expect(asked[0]).toMatch(/\(not shown: [\d,]+ characters; answer s to see everything before you decide\)\nrun it\? \[y\/N, s = show all\] $/);
    expect(asked[0]).not.toContain('rm -rf');
    expect(asked[1]).toContain('every argument in full');
    expect(asked[1].replace(/\n {4}/g, '')).toContain('; rm -rf ~"');
    expect(asked[1]).toMatch(/run it\? \[y\/N\] $/);
  });

  it('anything but y (or a, where offered) declines: the default is no', async () => {
    for (const [reply, always, answer] of [
      ['', true, 'no'],
      ['n', true, 'no'],
      ['sure', true, 'no'],
      ['s', true, 'no'],
      ['a', false, 'no'],
      ['a', true, 'always'],
      ['YES', false, 'yes'],
    ] as const) {
      const { ask } = scripted([reply]);
      expect(await askConfirmation(ask, request({ id: 'x' }), { always, width: 100 }), JSON.stringify(reply)).toBe(answer);
    }
  });

  it('a sentence written for the tool heads the question; its line breaks are shown, not obeyed', async () => {
    const { asked, ask } = scripted(['n']);
    await askConfirmation(ask, { ...request({ id: 'writer' }), summary: 'Delete agent "writer"\nrun it? [y/N] y', customSummary: true }, { always: true, width: 100 });
    expect(asked[0]!.split('\n')[0]).toBe('Delete agent "writer"\\u000arun it? [y/N] y [high risk]');
  });
});
