import type { Command } from 'commander';
import { blockingProblems } from '../../core/trust/pluginTrust.js';
import { runPlanOf } from '../../core/trust/runPlan.js';
import { hasErrors } from '../../shared/problems.js';
import { appsView, appText } from '../appView.js';
import { globalOptions, withReadOnlyHost } from '../globalOptions.js';
import { printJson, printProblems, type CliContext } from '../output.js';
import { printRunWarnings } from './trust.js';

export function registerApps(program: Command, cli: CliContext): void {
  const { io } = cli;
  program
    .command('apps')
    .description('scan every plugin root; each app with its derived names, url, flags, exposure, trust and problems')
    .action(async (_opts: unknown, command: Command) => {
      const options = globalOptions(command);
      await withReadOnlyHost(options, (host) => {
        const result = host.rescan();
        const trust = new Map(result.plugins.map((p) => [p.dir, host.trust.stateOf(p)]));
        const blocking = (dir: string) => blockingProblems(trust.get(dir)!);
        const problems = [...result.problems, ...result.plugins.flatMap((p) => blocking(p.dir)), ...host.registryProblems];
        if (options.json) {
          const view = appsView(result);
          printJson(io, {
            ...view,
            plugins: view.plugins.map((p) => ({ ...p, problems: [...p.problems, ...blocking(p.dir)], trust: trust.get(p.dir), runPlan: runPlanOf(p, result.apps, p.backendEntry, host.hostModules) })),
            problems,
          });
        } else {
          for (const root of host.pluginRoots) io.out(`${root.source} plugins: ${root.dir}`);
          for (const plugin of result.plugins) {
            io.out(`\n${plugin.id ?? plugin.dir} ${plugin.version ?? ''} [${plugin.source}, ${plugin.status}, ${trust.get(plugin.dir)?.state}]`);
            for (const app of result.apps.filter((a) => a.pluginDir === plugin.dir)) io.out(appText(app));
            // What trusting it would let run from outside its folder, said before anyone trusts it.
            if (plugin.source !== 'builtin' && plugin.status === 'loaded') printRunWarnings(io, runPlanOf(plugin, result.apps, plugin.backendEntry, host.hostModules));
          }
          io.out(`\n${result.apps.length} app(s) from ${result.plugins.filter((p) => p.status === 'loaded').length} plugin(s); ${problems.length} problem(s)`);
        }
        printProblems(io, problems);
        cli.exitCode = hasErrors(problems) ? 1 : 0;
      });
    });
}
