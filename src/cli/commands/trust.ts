import * as fs from 'node:fs';
import type { Command } from 'commander';
import type { Host } from '../../core/host.js';
import { suggestClosest } from '../../core/naming/suggest.js';
import { installPlugin, InstallError } from '../../core/plugins/pluginInstaller.js';
import { runPlanOf } from '../../core/trust/pluginTrust.js';
import { hasErrors } from '../../shared/problems.js';
import type { PluginRecord } from '../../shared/appContribution.js';
import type { RunPlan } from '../../shared/trust.js';
import { globalOptions, withStartedHost } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext, type CliIo } from '../output.js';

/** The plugin with this id that the host would load (or, failing that, any folder declaring it). */
function findPlugin(host: Host, pluginId: string): PluginRecord {
  const plugins = host.rescan().plugins;
  const found = plugins.find((p) => p.id === pluginId && p.status === 'loaded') ?? plugins.find((p) => p.id === pluginId);
  if (!found) {
    const close = suggestClosest(pluginId, plugins.map((p) => p.id).filter((id): id is string => !!id));
    throw new UserError(`no plugin "${pluginId}" is installed${close.length ? `; did you mean ${close.map((c) => `"${c}"`).join(' or ')}?` : ''}`, 'list plugins with "chatos apps"');
  }
  return found;
}

export function printRunPlan(io: CliIo, plan: RunPlan): void {
  for (const server of plan.servers) io.out(`  server ${server.serverName}: ${server.command ? server.command.join(' ') : server.url}`);
  for (const page of plan.pages) io.out(`  page ${page.appId}: ${page.entry}${page.compact ? ` (compact: ${page.compact})` : ''}`);
  if (plan.backend) io.out(`  backend: node ${plan.backend}`);
  if (!plan.servers.length && !plan.pages.length && !plan.backend) io.out('  (nothing)');
}

export function registerTrust(program: Command, cli: CliContext): void {
  const { io } = cli;
  program
    .command('trust')
    .description("trust a plugin's current content, after showing exactly what it will run")
    .argument('<plugin>', 'plugin id')
    .action(async (pluginId: string, _opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withStartedHost(options, (host) => {
        const plugin = findPlugin(host, pluginId);
        if (plugin.source === 'builtin') {
          io.out(`${pluginId} is a built-in plugin: it is always trusted`);
          return;
        }
        if (plugin.status !== 'loaded') {
          printProblems(io, plugin.problems);
          throw new UserError(`${pluginId} at ${plugin.dir} is ${plugin.status}; it cannot be trusted until it loads`, 'fix the problems above');
        }
        const plan = runPlanOf(plugin, host.catalog.apps, plugin.backendEntry);
        const record = host.trust.trust({ ...plugin, id: pluginId }, plan);
        if (options.json) {
          printJson(io, { pluginId, dir: record.dir, fingerprint: record.fingerprint, trustedAt: record.trustedAt, runPlan: plan });
        } else {
          io.out(`trusting ${pluginId} (${plugin.dir}); from now on it may run:`);
          printRunPlan(io, plan);
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
      await withStartedHost(options, (host) => {
        const removed = host.trust.untrust(pluginId);
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
        const plan = plugin ? runPlanOf(plugin, host.catalog.apps, plugin.backendEntry) : undefined;
        if (options.json) {
          printJson(io, { pluginId: installed.pluginId, dir: installed.dir, trust: 'untrusted', status: plugin?.status, runPlan: plan, problems: plugin?.problems ?? [] });
        } else {
          io.out(`installed ${installed.pluginId} in ${installed.dir} (untrusted: nothing of it runs yet)`);
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
      await withStartedHost(options, (host) => {
        const userRoot = host.home.userPluginsDir;
        const plugins = host.rescan().plugins.filter((p) => p.id === pluginId);
        const installed = plugins.find((p) => p.source === 'user');
        if (!installed) {
          const elsewhere = plugins[0];
          if (elsewhere) throw new UserError(`${pluginId} is not in the user plugin folder (it is ${elsewhere.source}: ${elsewhere.dir})`, elsewhere.source === 'builtin' ? 'built-in plugins cannot be uninstalled; install a user copy to override it' : 'remove that folder or the --plugins option');
          findPlugin(host, pluginId); // throws with close matches
          return;
        }
        fs.rmSync(installed.dir, { recursive: true, force: true });
        host.trust.untrust(pluginId);
        host.rescan();
        const purged: string[] = [];
        if (opts.purge) {
          for (const dir of [host.home.pluginDataDir(pluginId), host.home.pluginStateDir(pluginId)]) {
            if (fs.existsSync(dir)) {
              fs.rmSync(dir, { recursive: true, force: true });
              purged.push(dir);
            }
          }
        }
        const notices = host.registryProblems.filter((p) => p.code === 'REGISTRATION_REMOVED');
        if (options.json) printJson(io, { pluginId, removed: installed.dir, purged, notices });
        else {
          io.out(`uninstalled ${pluginId} from ${userRoot}`);
          for (const notice of notices) io.out(`  ${notice.message}`);
          io.out(opts.purge ? `deleted its data: ${purged.join(', ') || '(none)'}` : `its data folder is kept: ${host.home.pluginDataDir(pluginId)} (use --purge to delete it)`);
        }
        if (hasErrors(host.registryProblems)) printProblems(io, host.registryProblems);
      });
      cli.exitCode = 0;
    });
}
