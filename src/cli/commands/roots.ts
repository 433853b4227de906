import type { Command } from 'commander';
import { addPluginRoot, listPluginRoots, removePluginRoot } from '../../core/plugins/pluginRoots.js';
import { RootsError } from '../../core/plugins/rememberedRoots.js';
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

export function registerRoots(program: Command, cli: CliContext): void {
  const { io } = cli;
  const roots = program.command('roots').description('plugin roots: the folders of plugin folders every process scans (remembered in the data home)');

  roots
    .command('list')
    .description("every plugin root: built-in, user, remembered, and this run's --plugins")
    .action(async (_opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withReadOnlyHost(options, (host) => {
        const view = listPluginRoots(host);
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
    });

  roots
    .command('add')
    .description('remember a folder of plugin folders, so every process (the app, chatos serve, every command) scans it; its plugins stay untrusted until you trust them')
    .argument('<dir>', 'a folder holding plugin folders')
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, async (host) => {
        const result = await rootsStep(() => addPluginRoot(host, dir));
        await commit(host);
        if (options.json) printJson(io, result);
        else {
          io.out(result.added ? `remembered ${result.dir}` : `${result.dir} was already remembered`);
          io.out(result.plugins.length ? `plugins found there: ${result.plugins.join(', ')} (untrusted until you trust them: chatos trust PLUGIN)` : 'no plugins found there yet');
        }
      });
      cli.exitCode = 0;
    });

  roots
    .command('remove')
    .description('forget a remembered root: its plugins are no longer scanned, and their registrations are kept as missing (grants too) until they return or you prune')
    .argument('<dir>', 'a remembered root')
    .action(async (dir: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, async (host) => {
        const result = await rootsStep(() => removePluginRoot(host, dir));
        await commit(host);
        if (options.json) printJson(io, result);
        else {
          io.out(`forgot ${result.dir} (its folders are left as they are)`);
          if (result.missing.length) io.out(`marked missing (their grants kept; remove them with: chatos registry prune --yes): ${result.missing.join(', ')}`);
        }
      });
      cli.exitCode = 0;
    });
}
