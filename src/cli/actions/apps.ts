import type { Command } from 'commander';
import { blockingProblems } from '../../core/facades/plugins.js';
import { hasErrors } from '../../shared/problemText.js';
import { appsView, appText } from '../appView.js';
import { globalOptions, withReadOnlyHost } from '../globalOptions.js';
import { printJson, printProblems, type CliContext } from '../output.js';
import { printRunWarnings } from './trust.js';

export async function apps(cli: CliContext, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  await withReadOnlyHost(options, (host) => {
    const result = host.plugins.rescan();
    const trust = new Map(result.plugins.map((p) => [p.dir, host.plugins.trustState(p)]));
    const blocking = (dir: string) => blockingProblems(trust.get(dir)!);
    // An app whose own server cannot start (its command is not there) is a problem to fix like a manifest's.
    const servers = host.plugins.appServerProblems(result);
    const problems = [...result.problems, ...result.plugins.flatMap((p) => blocking(p.dir)), ...servers, ...host.registry.problems];
    if (options.json) {
      const view = appsView(host, result);
      printJson(io, {
        ...view,
        plugins: view.plugins.map((p) => ({ ...p, problems: [...p.problems, ...blocking(p.dir)], trust: trust.get(p.dir), runPlan: host.plugins.runPlan(p) })),
        problems,
      });
    } else {
      for (const root of host.plugins.roots()) io.out(`${root.source} plugins: ${root.dir}`);
      for (const plugin of result.plugins) {
        io.out(`\n${plugin.id ?? plugin.dir} ${plugin.version ?? ''} [${plugin.source}, ${plugin.status}, ${trust.get(plugin.dir)?.state}]`);
        for (const app of result.apps.filter((a) => a.pluginDir === plugin.dir)) io.out(appText(app));
        // What trusting it would let run from outside its folder, said before anyone trusts it.
        if (plugin.source !== 'builtin' && plugin.status === 'loaded') printRunWarnings(io, host.plugins.runPlan(plugin));
      }
      io.out(`\n${result.apps.length} app(s) from ${result.plugins.filter((p) => p.status === 'loaded').length} plugin(s); ${problems.length} problem(s)`);
    }
    printProblems(io, problems);
    cli.exitCode = hasErrors(problems) ? 1 : 0;
  });
}
