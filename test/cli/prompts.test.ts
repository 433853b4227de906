import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/runCli.js';
import { tempDir } from '../helpers/tempDir.js';

/**
 * `chatos prompts …`: the host's own prompts from a terminal, through the
 * same core as the Prompts page. A prompt that is not valid is bad usage
 * (exit 2) naming what is wrong; one that cannot be saved as asked (taken,
 * not there, a file that cannot be read) exits 1 with the fix; nothing is
 * saved either way.
 */
describe('chatos prompts', () => {
  it('adds, lists and removes a prompt; refuses bad input with the reason, and saves nothing of it', async () => {
    const home = tempDir('chatos-cli-prompts-');
    const cli = (...args: string[]) => runCli(['--home', home, ...args]);
    const enFile = path.join(home, 'review.en.md');
    fs.writeFileSync(enFile, 'Review carefully.\n');
    const added = await cli('prompts', 'add', 'review', '--zh', '请仔细审阅。', '--en-file', enFile);
    expect(added.code, added.stderr).toBe(0);
    expect(added.stdout).toContain('saved prompt review: chatos::review, chatos::review__en');

    const usage: [string[], string][] = [
      [['prompts', 'add', 'bad name', '--en', 'x'], 'must start with a letter or digit'],
      [['prompts', 'add', 'x__en', '--en', 'x'], 'must not end in "__en"'],
      [['prompts', 'add', 'empty'], 'give a Chinese or an English text (or both)'],
      [['prompts', 'add', 'both', '--en', 'x', '--en-file', enFile], 'give --en or --en-file, not both'],
    ];
    for (const [args, message] of usage) {
      const run = await cli(...args);
      expect(run.code, args.join(' ')).toBe(2);
      expect(run.stderr, args.join(' ')).toContain(message);
    }
    const failed: [string[], string[]][] = [
      [
        ['prompts', 'add', 'review', '--en', 'again'],
        ['a prompt named "review" exists', 'choose another name, or edit that prompt'],
      ],
      [['prompts', 'add', 'nope', '--en', 'x', '--replace'], ['no prompt named "nope"']],
      [['prompts', 'remove', 'reveiw'], ['no prompt named "reveiw"; did you mean "review"?']],
      [['prompts', 'add', 'fromdir', '--zh-file', home], [`cannot read ${home}`]],
    ];
    for (const [args, messages] of failed) {
      const run = await cli(...args);
      expect(run.code, args.join(' ')).toBe(1);
      for (const message of messages) expect(run.stderr, args.join(' ')).toContain(message);
    }
    const listed = (await cli('prompts', 'list', '--json')).json();
    expect(listed.prompts).toEqual([expect.objectContaining({ name: 'review', zh: '请仔细审阅。', en: 'Review carefully.\n' })]);

    const removed = await cli('prompts', 'remove', 'review');
    expect(removed.code, removed.stderr).toBe(0);
    expect((await cli('prompts', 'list')).stdout).toContain('no prompts yet');
  });
});
