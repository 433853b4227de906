import type { Command } from 'commander';
import { InstallError, PluginLifecycleError } from '../../core/facades/errors.js';
import type { PluginUpdate } from '../../shared/pluginUpdate.js';
import { confirmStep } from '../confirmStep.js';
import { hasErrors } from '../../shared/problemText.js';
import type { RunPlan } from '../../shared/trust.js';
import { runPlanLines } from '../../core/facades/plugins.js';
import { commit, globalOptions, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext, type CliIo } from '../output.js';

/** Each run plan warning, as the plan shows it and `chatos apps` repeats it. */
export function printRunWarnings(io: CliIo, plan: RunPlan, indent = '  '): void {
  for (const warning of plan.warnings) io.out(`${indent}WARNING: ${warning.message}`);
}

export function printRunPlan(io: CliIo, plan: RunPlan): void {
  for (const line of runPlanLines(plan)) io.out(line);
}

/** Runs a lifecycle step, turning its refusal into the CLI's user error (exit 1) with the problems it carries. */
/** What an update in place changes: files, and what runs before (-) and after (+). */
function printUpdate(io: CliIo, update: PluginUpdate): void {
  io.out(`${update.pluginId} is installed at ${update.dir}; installing this copy updates it in place`);
  if (update.files) {
    const { added, removed, modified } = update.files;
    const parts = [
      ['added', added],
      ['removed', removed],
      ['modified', modified],
    ]
      .filter(([, names]) => names!.length)
      .map(([what, names]) => `${what}: ${(names as string[]).join(', ')}`);
    io.out(`  files ${parts.join('; ') || 'unchanged'}`);
  }
  io.out(update.runPlanChanged ? 'what it runs changes (- before, + after):' : 'what it runs stays the same:');
  for (const line of update.lines) io.out(`${line.op}${line.text.slice(1)}`);
  io.out(`its grants are kept; ${update.wasTrusted ? 'its trust no longer matches, so' : ''} nothing of it runs until you trust it (chatos trust ${update.pluginId})`);
}

async function lifecycle<T>(io: CliIo, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (error) {
    if (!(error instanceof PluginLifecycleError)) throw error;
    if (error.plugin) printProblems(io, error.plugin.problems);
    throw new UserError(error.message, error.hint);
  }
}

export async function trust(cli: CliContext, pluginId: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const { plugin, record } = await lifecycle(io, () => host.plugins.trust(pluginId));
    await commit(host);
    if (!record) {
      io.out(`${pluginId} is a built-in plugin: it is always trusted`);
      return;
    }
    if (options.json) {
      printJson(io, { pluginId, dir: record.dir, fingerprint: record.fingerprint, trustedAt: record.trustedAt, runPlan: record.runPlan });
    } else {
      io.out(`trusting ${pluginId} (${plugin.dir}); from now on it may run:`);
      printRunPlan(io, record.runPlan);
      io.out(`fingerprint ${record.fingerprint.slice(0, 16)}…: any change to its files makes it untrusted again`);
    }
  });
  cli.exitCode = 0;
}

export async function untrust(cli: CliContext, pluginId: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const { changed: removed } = await host.plugins.untrust(pluginId);
    await commit(host);
    if (options.json) printJson(io, { pluginId, untrusted: removed });
    else io.out(removed ? `${pluginId} is no longer trusted` : `${pluginId} was not trusted`);
  });
  cli.exitCode = 0;
}

export async function install(cli: CliContext, source: string, opts: { yes?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    let answer = true as boolean | 'no-terminal';
    let outcome;
    try {
      outcome = await host.plugins.installOrUpdate(source, async (update) => {
        if (!options.json) printUpdate(io, update);
        answer = await confirmStep(io, `update ${update.pluginId} in place?`, opts.yes);
        return answer === true;
      });
    } catch (error) {
      if (error instanceof InstallError) {
        printProblems(io, error.problems);
        throw new UserError(error.message, error.hint);
      }
      throw error;
    }
    if (outcome.kind === 'declined') {
      if (options.json) printJson(io, { pluginId: outcome.update.pluginId, updated: false, update: outcome.update });
      const retry = `chatos install ${source} --yes`;
      throw answer === 'no-terminal'
        ? new UserError(
            `${outcome.update.pluginId} is already installed; updating it in place needs a confirmation`,
            `run "${retry}" to update it (it keeps its grants and must be trusted again), or "chatos uninstall ${outcome.update.pluginId}" first`,
          )
        : new UserError(`${outcome.update.pluginId} was not updated`, `run "${retry}" to update it without asking`);
    }
    const { installed } = outcome;
    const plugin = host.plugins.rescan().plugins.find((p) => p.dir === installed.dir);
    await commit(host);
    const plan = plugin ? host.plugins.runPlan(plugin) : undefined;
    const trust = plugin ? host.plugins.trustState(plugin).state : 'untrusted';
    if (options.json) {
      printJson(io, {
        pluginId: installed.pluginId,
        dir: installed.dir,
        trust,
        status: plugin?.status,
        updated: outcome.kind === 'updated',
        ...(outcome.kind === 'updated' ? { update: outcome.update } : {}),
        runPlan: plan,
        leftOut: installed.leftOut,
        problems: plugin?.problems ?? [],
      });
    } else {
      if (outcome.kind === 'updated') io.out(`updated ${installed.pluginId} in ${installed.dir}; its grants are kept${trust === 'trusted' ? '' : ' (nothing of it runs until you trust it again)'}`);
      else io.out(`installed ${installed.pluginId} in ${installed.dir} (untrusted: nothing of it runs yet)`);
      if (installed.leftOut.length) io.out(`left out ${installed.leftOut.join(', ')}: version-control history, not plugin code`);
      if (plan && outcome.kind === 'installed') {
        io.out('once trusted it would run:');
        printRunPlan(io, plan);
      }
      if (trust !== 'trusted') io.out(`trust it with: chatos trust ${installed.pluginId}`);
    }
    printProblems(io, plugin?.problems ?? installed.problems);
  });
  cli.exitCode = 0;
}

export async function uninstall(cli: CliContext, pluginId: string, opts: { purge?: boolean; yes?: boolean }, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    const userRoot = host.setup.home.userPluginsDir;
    const { grants: dropped } = await lifecycle(io, () => host.plugins.previewUninstall(pluginId));
    if (dropped.length) {
      io.out(`uninstalling ${pluginId} drops the grants other apps have on it:`);
      for (const grant of dropped) io.out(`  ${grant.appId} loses ${grant.kind} ${grant.id}`);
      const answer = await confirmStep(io, `uninstall ${pluginId}?`, opts.yes);
      if (answer === 'no-terminal') throw new UserError(`${pluginId} was not uninstalled: other apps have grants on it`, `run "chatos uninstall ${pluginId} --yes" to uninstall it and drop them`);
      if (!answer) throw new UserError(`${pluginId} was not uninstalled`);
    }
    const { removed, purged, registrations } = await lifecycle(io, () => host.plugins.uninstall(pluginId, opts.purge ?? false));
    await commit(host);
    if (options.json) printJson(io, { pluginId, removed, purged, registrations });
    else {
      io.out(`uninstalled ${pluginId} from ${userRoot}`);
      for (const r of registrations)
        io.out(`  unregistered ${r.kind} ${r.id}${r.revokedGrants.length ? `; revoked its grant${r.revokedGrants.length > 1 ? 's' : ''} to ${r.revokedGrants.map((g) => g.appId).join(', ')}` : ''}`);
      io.out(opts.purge ? `deleted its data: ${purged.join(', ') || '(none)'}` : `its data folder is kept: ${host.setup.home.pluginDataDir(pluginId)} (use --purge to delete it)`);
    }
    if (hasErrors(host.registry.problems)) printProblems(io, host.registry.problems);
  });
  cli.exitCode = 0;
}
