import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Command } from 'commander';
import { hasErrors } from '../../shared/problemText.js';
import { appsView, appText } from '../appView.js';
import { globalOptions, hostFor } from '../globalOptions.js';
import { printJson, printProblems, UserError, type CliContext } from '../output.js';

export async function validate(cli: CliContext, dir: string, _opts: unknown, command: Command): Promise<void> {
  const { io } = cli;
  const options = globalOptions(command);
  const folder = path.resolve(dir);
  if (!fs.statSync(folder, { throwIfNoEntry: false })?.isDirectory()) throw new UserError(`${folder} is not a folder`, 'pass the folder that holds plugin.json');
  const host = hostFor(options);
  const result = host.plugins.catalog.validateFolder(folder);
  const valid = !hasErrors(result.problems);
  if (options.json) {
    printJson(io, { dir: folder, valid, ...appsView(host, result) });
  } else {
    const plugin = result.plugins[0];
    io.out(valid ? `ok: ${plugin?.id} ${plugin?.version} (${result.apps.length} app${result.apps.length === 1 ? '' : 's'})` : `invalid: ${folder}`);
    for (const app of result.apps) io.out(appText(app));
  }
  printProblems(io, result.problems);
  await host.dispose();
  cli.exitCode = valid ? 0 : 1;
}
