import * as readline from 'node:readline/promises';

/**
 * Whether to go on with a step that changes what the user has (an update
 * in place, an uninstall dropping grants): `--yes` goes on, a terminal asks
 * y/N, and without one the answer is `no-terminal`, so the command can say
 * to pass --yes (docs/reference/cli.md#exit-codes-and-output).
 */
export async function confirmStep(question: string, yes: boolean | undefined): Promise<boolean | 'no-terminal'> {
  if (yes) return true;
  if (!process.stdin.isTTY) return 'no-terminal';
  const rl = readline.createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}
