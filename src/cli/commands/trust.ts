import type { Command } from 'commander';
import { installPlugin, InstallError } from '../../core/plugins/pluginInstaller.js';
import { PluginLifecycleError, trustPlugin, uninstallPlugin } from '../../core/plugins/pluginLifecycle.js';
import { runPlanOf } from '../../core/trust/runPlan.js';
import { hasErrors } from '../../shared/problems.js';
import type { RunEnv, RunPlan } from '../../shared/trust.js';
import { commit, globalOptions, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext, type CliIo } from '../output.js';

function envText(env: RunEnv): string {
  const set = env.set.map(({ name, value }) => `${name}=${value}`).join(' ');
  const inherited = env.inherited.length ? `from the host: ${env.inherited.join(', ')}` : '';
  return [set, inherited].filter(Boolean).join('; ') || '(empty)';
}

/** Each run plan warning, as the plan shows it and `chatos apps` repeats it. */
export function printRunWarnings(io: CliIo, plan: RunPlan, indent = '  '): void {
  for (const warning of plan.warnings) io.out(`${indent}WARNING: ${warning.message}`);
}

export function printRunPlan(io: CliIo, plan: RunPlan): void {
  for (const server of plan.servers) {
    io.out(`  server ${server.serverName}: ${server.command ? server.command.join(' ') : server.url}`);
    if (server.env) io.out(`    environment: ${envText(server.env)}`);
  }
  for (const page of plan.pages) io.out(`  page ${page.appId}: ${page.entry}${page.compact ? ` (compact: ${page.compact})` : ''}`);
  if (plan.backend) {
    io.out(`  backend: node ${[...(plan.backendNodeArgs ?? []), plan.backend].join(' ')}`);
    if (plan.backendEnv) io.out(`    environment: ${envText(plan.backendEnv)}`);
  }
  if (!plan.servers.length && !plan.pages.length && !plan.backend) io.out('  (nothing)');
  else if (plan.hostModules?.length) io.out(`  from the host, without bundling: ${plan.hostModules.map((p) => `${p.name}@${p.version}`).join(', ')}`);
  printRunWarnings(io, plan);
}

/** Runs a lifecycle step, turning its refusal into the CLI's user error (exit 1) with the problems it carries. */
function lifecycle<T>(io: CliIo, step: () => T): T {
  try {
    return step();
  } catch (error) {
    if (!(error instanceof PluginLifecycleError)) throw error;
    if (error.plugin) printProblems(io, error.plugin.problems);
    throw new UserError(error.message, error.hint);
  }
}

export function registerTrust(program: Command, cli: CliContext): void {
  const { io } = cli;
  program
    .command('trust')
    .description("trust a plugin's current content, after showing exactly what it will run")
    .argument('<plugin>', 'plugin id')
    .action(async (pluginId: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, async (host) => {
        const { plugin, record } = lifecycle(io, () => trustPlugin(host, pluginId));
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
    });

  program
    .command('untrust')
    .description('take back trust: nothing of the plugin runs any more')
    .argument('<plugin>', 'plugin id')
    .action(async (pluginId: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, async (host) => {
        const removed = host.trust.untrust(pluginId);
        await commit(host);
        if (options.json) printJson(io, { pluginId, untrusted: removed });
        else io.out(removed ? `${pluginId} is no longer trusted` : `${pluginId} was not trusted`);
      });
      cli.exitCode = 0;
    });

  program
    .command('install')
    .description('copy a plugin (folder or .zip) into the user plugin folder; it stays untrusted until you trust it')
    .argument('<source>', 'plugin folder or .zip file')
    .action(async (source: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, async (host) => {
        let installed;
        try {
          installed = await installPlugin(source, host.home.userPluginsDir);
        } catch (error) {
          if (error instanceof InstallError) {
            printProblems(io, error.problems);
            throw new UserError(error.message, error.hint);
          }
          throw error;
        }
        const plugin = host.rescan().plugins.find((p) => p.dir === installed.dir);
        await commit(host);
        const plan = plugin ? runPlanOf(plugin, host.catalog.apps, plugin.backendEntry, host.hostModules) : undefined;
        if (options.json) {
          printJson(io, { pluginId: installed.pluginId, dir: installed.dir, trust: 'untrusted', status: plugin?.status, runPlan: plan, leftOut: installed.leftOut, problems: plugin?.problems ?? [] });
        } else {
          io.out(`installed ${installed.pluginId} in ${installed.dir} (untrusted: nothing of it runs yet)`);
          if (installed.leftOut.length) io.out(`left out ${installed.leftOut.join(', ')}: version-control history, not plugin code`);
          if (plan) {
            io.out('once trusted it would run:');
            printRunPlan(io, plan);
          }
          io.out(`trust it with: chatos trust ${installed.pluginId}`);
        }
        printProblems(io, plugin?.problems ?? installed.problems);
      });
      cli.exitCode = 0;
    });

  program
    .command('uninstall')
    .description('remove a plugin from the user plugin folder, with its registrations and grants; its data folder stays unless --purge')
    .argument('<plugin>', 'plugin id')
    .option('--purge', 'also delete its data and state folders')
    .action(async (pluginId: string, opts: { purge?: boolean }, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, async (host) => {
        const userRoot = host.home.userPluginsDir;
        const { removed, purged, registrations } = lifecycle(io, () => uninstallPlugin(host, pluginId, opts.purge ?? false));
        await commit(host);
        if (options.json) printJson(io, { pluginId, removed, purged, registrations });
        else {
          io.out(`uninstalled ${pluginId} from ${userRoot}`);
          for (const r of registrations) io.out(`  unregistered ${r.kind} ${r.id}${r.revokedGrants.length ? `; revoked its grant${r.revokedGrants.length > 1 ? 's' : ''} to ${r.revokedGrants.map((g) => g.appId).join(', ')}` : ''}`);
          io.out(opts.purge ? `deleted its data: ${purged.join(', ') || '(none)'}` : `its data folder is kept: ${host.home.pluginDataDir(pluginId)} (use --purge to delete it)`);
        }
        if (hasErrors(host.registryProblems)) printProblems(io, host.registryProblems);
      });
      cli.exitCode = 0;
    });
}
