import type { Command } from 'commander';
import { RootsError } from '../../core/facades/errors.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext } from '../output.js';

async function rootsStep<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof RootsError) throw new UserError(error.message, error.hint);
    throw error;
  }
}

export async function list(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const view = host.plugins.listRoots();
    if (options.json) printJson(io, view);
    else {
      for (const root of view.roots) {
        const kind = root.source === 'extra' ? (root.remembered ? 'remembered' : 'this run only (--plugins)') : root.source;
        io.out(`${root.dir}  [${kind}]${root.exists ? '' : '  (missing folder)'}`);
      }
    }
    printProblems(io, view.problems);
  });
  cli.exitCode = 0;
}

export async function add(cli: CliContext, dir: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const result = await rootsStep(() => host.plugins.addRoot(dir));
    await commit(host);
    if (options.json) printJson(io, result);
    else {
      io.out(result.added ? `remembered ${result.dir}` : `${result.dir} was already remembered`);
      io.out(result.plugins.length ? `plugins found there: ${result.plugins.join(', ')} (untrusted until you trust them: chatos trust PLUGIN)` : 'no plugins found there yet');
    }
  });
  cli.exitCode = 0;
}

export async function remove(cli: CliContext, dir: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const result = await rootsStep(() => host.plugins.removeRoot(dir));
    await commit(host);
    if (options.json) printJson(io, result);
    else {
      io.out(`forgot ${result.dir} (its folders are left as they are)`);
      if (result.missing.length) io.out(`marked missing (their grants kept; remove them with: chatos registry prune --yes): ${result.missing.join(', ')}`);
    }
  });
  cli.exitCode = 0;
}
