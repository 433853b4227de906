import type { CliIo } from './output.js';

/**
 * Whether to go on with a step that changes what the user has (an update
 * in place, an uninstall dropping grants): `--yes` goes on, a terminal asks
 * y/N, and without one the answer is `no-terminal`, so the command can say
 * to pass --yes (docs/reference/cli.md#exit-codes-and-output).
 */
export async function confirmStep(io: CliIo, question: string, yes: boolean | undefined): Promise<boolean | 'no-terminal'> {
  if (yes) return true;
  if (!io.ask) return 'no-terminal';
  return /^y(es)?$/i.test((await io.ask(`${question} [y/N] `)).trim());
}
