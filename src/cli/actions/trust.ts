import type { Command } from 'commander';
import { PluginLifecycleError } from '../../core/facades/errors.js';
import { confirmStep } from '../confirmStep.js';
import { hasErrors } from '../../shared/problemText.js';
import type { RunPlan } from '../../shared/trust.js';
import { installing, printRunPlan, printUpdate, reportInstall } from '../installReport.js';
import { commit, globalOptions, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext, type CliIo } from '../output.js';

/** Each run plan warning, as the plan shows it and `chatos apps` repeats it. */
export function printRunWarnings(io: CliIo, plan: RunPlan, indent = '  '): void {
  for (const warning of plan.warnings) io.out(`${indent}WARNING: ${warning.message}`);
}

/** Runs a lifecycle step, turning its refusal into the CLI's user error (exit 1) with the problems it carries. */
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

/** A .mcpb file or an http(s) address is an MCP Bundle; anything else a plugin folder or zip. */
const isBundle = (source: string) => /^https?:\/\//i.test(source) || source.toLowerCase().endsWith('.mcpb');

export async function install(
  cli: CliContext,
  source: string,
  opts: { yes?: boolean; config?: string[]; secretStdin?: string; keepSecrets?: boolean; allowHttp?: boolean },
  command: Command,
): Promise<void> {
  if (isBundle(source)) {
    const { installBundleCommand } = await import('./bundleInstall.js');
    await installBundleCommand(cli, source, opts, command);
    return;
  }
  const { io } = cli;
  const options = globalOptions(command);
  await withStartedHost(options, async (host) => {
    let answer = true as boolean | 'no-terminal';
    const outcome = await installing(io, () =>
      host.plugins.installOrUpdate(source, async (update) => {
        if (!options.json) printUpdate(io, update);
        answer = await confirmStep(io, `update ${update.pluginId} in place?`, opts.yes);
        return answer === true;
      }),
    );
    await reportInstall(cli, host, options.json, source, outcome, answer);
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
