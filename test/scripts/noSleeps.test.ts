import * as fs from 'node:fs';
import * as path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { repoRoot, tempDir } from '../helpers/tempDir.js';

/**
 * Tests that never flake on a busy machine (docs/contributing/testing.md#no-sleeps-no-timing-ratios):
 * no test under test/ sleeps, polls on a timer of its own, measures wall
 * time or draws unseeded random numbers. Each line that does is named with
 * its file, line and the fix. Run on the repository, and on a small tree
 * that breaks each rule once, so a rule that stops matching fails too.
 */

/** A thing a test must not do, and what to do instead. */
interface Rule {
  what: string;
  pattern: RegExp;
  fix: string;
}

const WAIT = "await the event or ready signal (a listener, EventQueue, pageReady), move the host's time (TestScheduler), or poll another process through until()";

const RULES: Rule[] = [
  { what: 'a sleep', pattern: /setTimeout\(\s*(?:\(\)\s*=>\s*)?(?:resolve|res|r|done|next|wake)\s*(?:\(\))?\s*[,)]/, fix: WAIT },
  { what: 'a browser sleep', pattern: /\bwaitForTimeout\(/, fix: 'wait for what the page shows: pageReady(page, route), a locator, expect.poll' },
  { what: 'a timer from timers/promises', pattern: /['"](?:node:)?timers\/promises['"]/, fix: WAIT },
  { what: 'a poll on a timer of its own', pattern: /set(?:Timeout|Interval)\(\s*(?:poll|look|check|again|retry|tick)\b/, fix: WAIT },
  {
    what: 'a wall-clock measurement',
    pattern: /\bperformance\.now\(\)|\bDate\.now\(\)\s*-\s*[A-Za-z_$(]/,
    fix: 'count the work (calls, bytes, regex runs), or time it in npm run bench (scripts/bench/)',
  },
  { what: 'unseeded randomness', pattern: /\bMath\.random\(\)/, fix: 'seededRandom() (test/helpers/seededRandom.ts): a failure prints its seed and CHATOS_SEED replays it' },
  {
    what: "a pointer click on a button of the chat's list",
    pattern: /getByTestId\(['"`](?:tool-call-toggle|call-cancel|confirm-[a-z-]+|message-[a-z-]+|sibling-[a-z]+|result-[a-z-]+)['"`]\)\.click\(\)/,
    fix: "press('Enter'): the list moves rows between a pointer's press and its release (docs/contributing/testing.md)",
  },
];

/**
 * The lines allowed to do one of those, each for a reason. `text` is a part of the line; an entry that matches
 * no line fails the check (it is stale: delete it), unless `mayBeGone` (another branch removes that line).
 */
interface Allowed {
  file: string;
  text: string;
  why: string;
  mayBeGone?: true;
}

const ALLOWED: Allowed[] = [
  { file: 'test/helpers/until.ts', text: 'setTimeout(resolve, everyMs)', why: 'the one poll interval: for a state another process reaches without telling this one' },
  { file: 'test/helpers/providerServer.ts', text: 'setTimeout(resolve, reply.delayMs)', why: "a scripted slow provider: the delay is the simulated world's, not a wait of the test" },
  { file: 'test/helpers/providerServer.ts', text: 'setTimeout(resolve, options.delayMs)', why: 'the same, for a replayed recording' },
  { file: 'test/core/store/crashSafety.test.ts', text: "from 'node:timers/promises'", why: "the kill's random moment (seeded) is the test's input, not a wait for something" },
  { file: 'test/core/elicitation/elicitationTasks.test.ts', text: 'setTimeout(resolve, 100)', why: "inside a fixture server's source: the server polls tasks/get, as the protocol has it" },
  { file: 'test/ui/ui.browser.test.ts', text: "page.getByTestId('confirm-approve').click()", why: "the Playground's confirmation, not in the chat's list" },
  { file: 'test/ui/zhMode.browser.test.ts', text: "card.getByTestId('confirm-decline').click()", why: "the Playground's confirmation, not in the chat's list" },
  { file: 'test/ui/elicitation.browser.test.ts', text: "page.getByTestId('call-cancel').click()", why: "the Playground's cancel, not in the chat's list" },
  { file: 'test/ui/longCalls.browser.test.ts', text: "page.getByTestId('call-cancel').click()", why: "the Playground's cancel, not in the chat's list" },
  { file: 'test/ui/resources.browser.test.ts', text: "link.getByTestId('result-resource-open').click()", why: "a link in the Playground's result, not in the chat's list" },
  { file: 'test/runner/timingReporter.ts', text: 'Date.now() - this.started', why: "the reporter that writes the suite's wall time (test-output/timings-*.json), not a test" },
];

/** Folders never read: test data that breaks rules on purpose (fixture servers simulate slow or hostile peers). */
const SKIPPED = new Set(['test/fixtures']);
/** This file: its rules and its small broken tree spell out what they refuse. */
const SELF = 'test/scripts/noSleeps.test.ts';

function testFiles(root: string, dir = 'test', out: string[] = []): string[] {
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIPPED.has(rel)) testFiles(root, rel, out);
    } else if (/\.(ts|mts|mjs|js)$/.test(entry.name) && rel !== SELF) out.push(rel);
  }
  return out;
}

/** A comment line says what not to do without doing it. */
const isComment = (line: string) => /^\s*(?:\/\/|\/\*|\*)/.test(line);

/** Every line under `root`/test that breaks a rule and is not allowed, as `file:line: what: the line; fix`; then the stale allowances. */
function findSleeps(root: string, allowed: readonly Allowed[] = ALLOWED): string[] {
  const found: string[] = [];
  const used = new Set<Allowed>();
  for (const file of testFiles(root)) {
    fs.readFileSync(path.join(root, file), 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (isComment(line)) return;
        for (const rule of RULES) {
          if (!rule.pattern.test(line)) continue;
          const allowance = allowed.find((a) => a.file === file && line.includes(a.text));
          if (allowance) used.add(allowance);
          else found.push(`${file}:${i + 1}: ${rule.what}: ${line.trim()}\n    fix: ${rule.fix}`);
        }
      });
  }
  for (const allowance of allowed) {
    if (!used.has(allowance) && !allowance.mayBeGone) found.push(`${SELF}: the allowance for ${allowance.file} ("${allowance.text}") matches no line: delete it`);
  }
  return found;
}

describe('tests that never flake', () => {
  it('no test sleeps, polls on its own timer, measures wall time or draws unseeded random numbers', () => {
    const found = findSleeps(repoRoot);
    expect(found, `\n${found.join('\n')}\n`).toEqual([]);
  });

  it('refuses each of those in a new file, naming the file, the line and the fix', () => {
    const root = tempDir('chatos-no-sleeps-');
    fs.mkdirSync(path.join(root, 'test', 'core'), { recursive: true });
    fs.mkdirSync(path.join(root, 'test', 'fixtures'), { recursive: true });
    const lines = [
      "import { it } from 'vitest';",
      '// Comments may name setTimeout(resolve, 10) and Math.random(): they do nothing.',
      'await new Promise((resolve) => setTimeout(resolve, 50));',
      'await new Promise<void>((r) => setTimeout(() => r(), 50));',
      'await page.waitForTimeout(400);',
      "import { setTimeout as wait } from 'node:timers/promises';",
      'const poll = () => (done ? resolve() : setTimeout(poll, 5));',
      'const took = performance.now() - started;',
      'expect(Date.now() - before).toBeLessThan(15_000);',
      'const old = new Date(Date.now() - 60_000); // an old time stamp, not a measurement',
      'const pick = Math.floor(Math.random() * 3);',
      "await card.getByTestId('confirm-approve').click();",
    ];
    fs.writeFileSync(path.join(root, 'test', 'core', 'new.test.ts'), lines.join('\n'));
    // Fixture servers simulate slow peers: never read.
    fs.writeFileSync(path.join(root, 'test', 'fixtures', 'slowServer.mjs'), 'await new Promise((resolve) => setTimeout(resolve, 50));\n');
    const found = findSleeps(root, [{ file: 'test/helpers/gone.ts', text: 'setTimeout(resolve', why: 'stale' }]);
    expect(found.map((f) => f.split('\n')[0])).toEqual([
      'test/core/new.test.ts:3: a sleep: await new Promise((resolve) => setTimeout(resolve, 50));',
      'test/core/new.test.ts:4: a sleep: await new Promise<void>((r) => setTimeout(() => r(), 50));',
      'test/core/new.test.ts:5: a browser sleep: await page.waitForTimeout(400);',
      "test/core/new.test.ts:6: a timer from timers/promises: import { setTimeout as wait } from 'node:timers/promises';",
      'test/core/new.test.ts:7: a poll on a timer of its own: const poll = () => (done ? resolve() : setTimeout(poll, 5));',
      'test/core/new.test.ts:8: a wall-clock measurement: const took = performance.now() - started;',
      'test/core/new.test.ts:9: a wall-clock measurement: expect(Date.now() - before).toBeLessThan(15_000);',
      'test/core/new.test.ts:11: unseeded randomness: const pick = Math.floor(Math.random() * 3);',
      "test/core/new.test.ts:12: a pointer click on a button of the chat's list: await card.getByTestId('confirm-approve').click();",
      `${SELF}: the allowance for test/helpers/gone.ts ("setTimeout(resolve") matches no line: delete it`,
    ]);
    expect(found[0]).toContain('fix: await the event or ready signal');
  });

  it('every property test runs from a fixed seed (test/runner/fixedSeeds.ts, loaded by vitest.config.ts)', () => {
    expect(fc.readConfigureGlobal().seed).toEqual(expect.any(Number));
  });
});
