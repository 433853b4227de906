import type { Command } from 'commander';
import { PluginLifecycleError, RootsError } from '../../core/facades/errors.js';
import { commit, globalOptions, withReadOnlyHost, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UsageError, UserError, type CliContext } from '../output.js';
import { printRunPlan } from '../installReport.js';

async function devStep<T>(cli: CliContext, step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (error instanceof RootsError) throw new UserError(error.message, error.hint);
    if (error instanceof PluginLifecycleError) {
      if (error.plugin) printProblems(cli.io, error.plugin.problems);
      throw new UserError(error.message, error.hint);
    }
    throw error;
  }
}

export async function dev(cli: CliContext, dir: string | undefined, opts: { unlink?: string }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  if (opts.unlink !== undefined) {
    if (dir !== undefined) throw new UsageError('give either a folder to link or --unlink, not both');
    const target = opts.unlink;
    await withStartedHost(options, async (host) => {
      const result = await devStep(cli, () => host.plugins.unlinkDev(target));
      await commit(host);
      if (options.json) printJson(io, result);
      else {
        io.out(`unlinked ${result.pluginId ?? result.dir} (${result.dir} is left as it is)`);
        if (result.removed.length) io.out(`  removed its registrations, with the grants on them: ${result.removed.join(', ')}`);
      }
    });
  } else if (dir === undefined || dir === 'list') {
    await withReadOnlyHost(options, (host) => {
      // dev-links.json that cannot be read links nothing: said, not silent.
      const { links, problems } = host.plugins.devLinks();
      if (options.json) printJson(io, { links, problems });
      else if (!links.length) io.out('no plugin folder is linked; link one with: chatos dev DIR');
      else for (const link of links) io.out(`${link.pluginId ?? '(no plugin)'}  ${link.dir}  [${link.status}]`);
      printProblems(io, problems);
    });
  } else {
    await withStartedHost(options, async (host) => {
      const { plugin, record, added } = await devStep(cli, () => host.plugins.linkDev(dir));
      await commit(host);
      if (options.json) printJson(io, { pluginId: plugin.id, dir: plugin.dir, linked: added ? 'added' : 'already', runPlan: record.runPlan });
      else {
        io.out(`${added ? 'linked' : 'already linked:'} ${plugin.id} at ${plugin.dir} (a development plugin); trusted to run:`);
        printRunPlan(io, record.runPlan);
        io.out('while it stays linked, every edit is trusted again and reloads its page, server and backend (an open window says what changed).');
        io.out(`unlink it with: chatos dev --unlink ${plugin.id}`);
      }
      printProblems(io, plugin.problems);
    });
  }
  cli.exitCode = 0;
}
