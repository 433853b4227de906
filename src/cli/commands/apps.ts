import type { Command } from 'commander';
import { hasErrors } from '../../shared/problems.js';
import { appsView, appText } from '../appView.js';
import { globalOptions, hostFor } from '../globalOptions.js';
import { printJson, printProblems, type CliContext } from '../output.js';

export function registerApps(program: Command, cli: CliContext): void {
  const { io } = cli;
  program
    .command('apps')
    .description('scan every plugin root; each app with its derived names, url, flags, exposure and problems')
    .action(async (_opts: unknown, command: Command) => {
      const options = globalOptions(command);
      const host = hostFor(options);
      const result = host.catalog.rescan();
      if (options.json) {
        printJson(io, appsView(result));
      } else {
        for (const root of host.pluginRoots) io.out(`${root.source} plugins: ${root.dir}`);
        for (const plugin of result.plugins) {
          io.out(`\n${plugin.id ?? plugin.dir} ${plugin.version ?? ''} [${plugin.source}, ${plugin.status}]`);
          for (const app of result.apps.filter((a) => a.pluginDir === plugin.dir)) io.out(appText(app));
        }
        io.out(`\n${result.apps.length} app(s) from ${result.plugins.filter((p) => p.status === 'loaded').length} plugin(s); ${result.problems.length} problem(s)`);
      }
      printProblems(io, result.problems);
      await host.dispose();
      cli.exitCode = hasErrors(result.problems) ? 1 : 0;
    });
}
